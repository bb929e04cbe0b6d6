import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { createDataSource, migrate } from './data-source';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres';

export const EMBEDDED_POSTGRES = Symbol('EMBEDDED_POSTGRES');

const logger = new Logger('Database');

@Global()
@Module({
  providers: [
    {
      provide: EMBEDDED_POSTGRES,
      inject: [LOUPE_CONFIG],
      useFactory: async (config: LoupeConfig): Promise<EmbeddedPostgresHandle | null> =>
        config.databaseUrl ? null : startEmbeddedPostgres(config.home, (m) => logger.log(m)),
    },
    {
      provide: DataSource,
      inject: [LOUPE_CONFIG, EMBEDDED_POSTGRES],
      useFactory: async (config: LoupeConfig, embedded: EmbeddedPostgresHandle | null): Promise<DataSource> => {
        const url = config.databaseUrl ?? embedded!.url;
        const ds = createDataSource(url);
        await ds.initialize();
        const ran = await migrate(ds);
        if (ran.length) logger.log(`applied migrations: ${ran.join(', ')}`);
        return ds;
      },
    },
  ],
  exports: [DataSource, EMBEDDED_POSTGRES],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EMBEDDED_POSTGRES) private readonly embedded: EmbeddedPostgresHandle | null,
  ) {}

  // Runs after every beforeApplicationShutdown hook, so the journal has drained by now.
  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}
