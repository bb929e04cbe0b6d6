const { withAppContext } = require('/work/main/dist/src/cli/app-context');
const { loadConfig } = require('/work/main/dist/src/config/loupe-config');
const { DataSource } = require('/work/main/node_modules/typeorm');
(async () => {
  await withAppContext(loadConfig(), async (app) => {
    const ds = app.get(DataSource);
    await ds.query(process.argv[2]);
    console.log('ok');
  }, { telemetry: false });
})();
