import type { Command } from 'commander';
import type { INestApplicationContext } from '@nestjs/common';
import type { LoupeConfig } from '../../config/loupe-config';
import type { ModelsService } from '../../provider/models.service';
import { lazy } from '../lazy';
import { EXIT, setVerdict } from '../exit-codes';

function withModels<T>(config: LoupeConfig, fn: (m: ModelsService) => Promise<T>): Promise<T> {
  const { ModelsService: Service } = lazy.models();
  return lazy.appContext().withAppContext(config, (app: INestApplicationContext) => fn(app.get(Service)));
}

const gb = (bytes: number) => `${(bytes / 1e9).toFixed(1)} GB`;

export function registerModelsCommand(program: Command, getConfig: () => LoupeConfig): void {
  const models = program.command('models').description('Manage the models of the Ollama at OLLAMA_HOST (default: local Ollama)');

  models
    .command('list')
    .option('--json')
    .description('installed models with family, size, quantization, capabilities, loaded or not')
    .action(async (opts: { json?: boolean }) => {
      const list = await withModels(getConfig(), (m) => m.list());
      if (opts.json) return void process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      for (const d of list) {
        process.stdout.write(
          `${d.name.padEnd(32)} ${(d.family ?? '-').padEnd(10)} ${(d.parameterSize ?? '-').padEnd(8)} ${(d.quantization ?? '-').padEnd(8)} ${gb(d.sizeBytes).padStart(8)}  ${d.capabilities.join(',')}${d.loaded ? '  [loaded]' : ''}${d.cloud ? '  [cloud]' : ''}\n`,
        );
      }
    });

  models
    .command('ps')
    .option('--json')
    .description('models loaded now, with VRAM use')
    .action(async (opts: { json?: boolean }) => {
      const running = await withModels(getConfig(), (m) => m.running());
      if (opts.json) return void process.stdout.write(`${JSON.stringify(running, null, 2)}\n`);
      for (const r of running) process.stdout.write(`${r.name.padEnd(32)} ${gb(r.size)} total, ${gb(r.sizeVram)} in VRAM\n`);
    });

  models
    .command('pull')
    .argument('<model>')
    .option('--json', 'progress as JSON lines')
    .description('download a model with streamed progress (recorded as model_pull events)')
    .action(async (model: string, opts: { json?: boolean }) => {
      let last = '';
      const final = await withModels(getConfig(), (m) =>
        m.pull(model, (s) => {
          const line = opts.json
            ? JSON.stringify(s)
            : `${s.status} ${s.percent.toFixed(0)}%${s.totalBytes ? ` (${gb(s.completedBytes)} of ${gb(s.totalBytes)})` : ''}`;
          if (line !== last) process.stderr.write(`${line}\n`);
          last = line;
        }),
      );
      process.stdout.write(`${opts.json ? JSON.stringify(final) : `pulled ${model}`}\n`);
    });

  models
    .command('rm')
    .argument('<model>')
    .description('delete a model')
    .action(async (model: string) => {
      const result = await withModels(getConfig(), (m) => m.remove(model));
      if (!result.success) {
        process.stderr.write(`could not delete ${model}: ${result.error}\n`);
        setVerdict(EXIT.FAILED);
        return;
      }
      process.stdout.write(`deleted ${model}\n`);
    });
}
