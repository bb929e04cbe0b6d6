import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ScenarioCache, scenarioCacheKey, scenarioCacheStamp } from './scenario-cache';
import { ScenarioLoadError } from './scenario-errors';
import { loadScenarios, scenarioCache } from './scenario-loader';

const scenarioText = (id: string, prompt = 'Say done.') =>
  `id: ${id}\ntitle: t\nspec: s\nprompt: ${prompt}\nscript:\n  - content: The task is done.\nexpect:\n  - termination: completed\n`;

describe('parsed-scenario cache', () => {
  let dir: string;
  let cacheDir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-scenario-cache-'));
    cacheDir = path.join(dir, 'home', 'cache');
    fs.mkdirSync(path.join(dir, 's'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, 's', name), text);
  const load = (stamp = 'build-1') => loadScenarios(['s'], dir, { cache: new ScenarioCache(cacheDir, stamp) });
  const keyOf = (name: string) =>
    scenarioCacheKey(fs.readFileSync(path.join(dir, 's', name), 'utf8'), path.join('s', name), path.join(dir, 's', name));

  it('keeps what parsed, and a later load gets the same scenarios from it', () => {
    write('a.yaml', scenarioText('c/a'));
    write('b.yaml', scenarioText('c/b'));
    const first = load();
    expect(new ScenarioCache(cacheDir, 'build-1').get(keyOf('a.yaml'))).toEqual(first[0]);
    expect(load()).toEqual(first);
    expect(loadScenarios(['s'], dir)).toEqual(first);
  });

  it('parses a file again once its content changes', () => {
    write('a.yaml', scenarioText('c/a'));
    load();
    write('a.yaml', scenarioText('c/a', 'Say it is done.'));
    expect(load()[0].prompt).toBe('Say it is done.');
  });

  it('never keeps a file with a problem: it is reported on every load, and nothing runs', () => {
    write('a.yaml', scenarioText('c/a'));
    write('bad.yaml', `${scenarioText('c/bad')}tools: [exec_comand]\n`);
    for (let i = 0; i < 2; i++) expect(load).toThrow(ScenarioLoadError);
    expect(fs.existsSync(path.join(cacheDir, 'scenarios.v1.bin'))).toBe(false);
    write('bad.yaml', scenarioText('c/bad'));
    load();
    write('bad.yaml', `${scenarioText('c/bad')}tools: [exec_comand]\n`);
    expect(load).toThrow(/unknown tool "exec_comand"/);
  });

  it('a duplicate id across cached files is still bad input', () => {
    write('a.yaml', scenarioText('c/a'));
    load();
    write('b.yaml', scenarioText('c/a'));
    expect(load).toThrow(/duplicate scenario id "c\/a"/);
  });

  it('is not read under another build', () => {
    write('a.yaml', scenarioText('c/a'));
    load('build-1');
    expect(new ScenarioCache(cacheDir, 'build-2').get(keyOf('a.yaml'))).toBeUndefined();
  });

  it('an unreadable cache file is parsed past and written again', () => {
    write('a.yaml', scenarioText('c/a'));
    fs.mkdirSync(cacheDir, { recursive: true });
    fs.writeFileSync(path.join(cacheDir, 'scenarios.v1.bin'), 'not a cache');
    expect(load()[0].id).toBe('c/a');
    expect(new ScenarioCache(cacheDir, 'build-1').get(keyOf('a.yaml'))?.id).toBe('c/a');
  });

  it('the stamp changes with the parser build and the spec catalogue', () => {
    const parser = path.join(dir, 'parser.js');
    const catalogue = path.join(dir, 'catalogue.json');
    fs.writeFileSync(parser, 'x');
    fs.writeFileSync(catalogue, '{}');
    const before = scenarioCacheStamp('1.0.0', parser, catalogue);
    fs.writeFileSync(catalogue, '{"items":[]}');
    expect(scenarioCacheStamp('1.0.0', parser, catalogue)).not.toBe(before);
    expect(scenarioCacheStamp('1.0.1', parser, catalogue)).not.toBe(scenarioCacheStamp('1.0.0', parser, catalogue));
    expect(scenarioCache(cacheDir)).toBeInstanceOf(ScenarioCache);
  });
});
