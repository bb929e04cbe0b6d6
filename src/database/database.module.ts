import { Global, Inject, Logger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { DatabaseHealth } from './database-health';
import { DatabaseProbe } from './database-probe.repository';
import { closeDataSource, connectDataSource, pointPoolAt, POOL_CLOSE_TIMEOUT_MS } from './data-source';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded/embedded-postgres';
import { takeEarly } from './embedded/early-start';

export const EMBEDDED_POSTGRES = Symbol('EMBEDDED_POSTGRES');

const logger = new Logger('Database');

// a notice (the first start's initialisation) reaches stderr at any log level: the CLI logs only
// warnings by default, and the first run would otherwise sit silent for seconds
const embeddedLog = (m: string, level?: 'warn' | 'notice') =>
  level === 'warn' ? logger.warn(m) : level === 'notice' ? process.stderr.write(`loupe: ${m}\n`) : logger.log(m);

@Global()
@Module({
  providers: [
    DatabaseHealth,
    DatabaseProbe,
    {
      provide: EMBEDDED_POSTGRES,
      inject: [LOUPE_CONFIG],
      useFactory: async (config: LoupeConfig): Promise<EmbeddedPostgresHandle | null> =>
        config.databaseUrl
          ? null
          : // the CLI may have started it already, while it was loading (early-start.ts)
            (takeEarly(config.home, embeddedLog) ??
            startEmbeddedPostgres(config.home, embeddedLog, {
              restartDeadlineMs: config.embeddedPostgresRestartMs,
            })),
    },
    {
      provide: DataSource,
      inject: [LOUPE_CONFIG, EMBEDDED_POSTGRES, DatabaseHealth],
      useFactory: async (config: LoupeConfig, embedded: EmbeddedPostgresHandle | null, health: DatabaseHealth): Promise<DataSource> => {
        const ds = await connectDataSource(
          config.databaseUrl ?? embedded!.url,
          config.databaseUrl ? 'DATABASE_URL' : 'the embedded Postgres',
        );
        embedded?.events.on('restarted', ({ url, downMs, port, previousPid }) => {
          pointPoolAt(ds, url);
          health.restarted$.next({ downMs, port, previousPid });
        });
        embedded?.events.on('failed', (e) => {
          logger.error(e.message);
          health.fail(e);
        });
        return ds;
      },
    },
  ],
  exports: [DataSource, EMBEDDED_POSTGRES, DatabaseHealth, DatabaseProbe],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(EMBEDDED_POSTGRES) private readonly embedded: EmbeddedPostgresHandle | null,
  ) {}

  // Runs after every beforeApplicationShutdown hook, so the journal has drained by now.
  async onApplicationShutdown(): Promise<void> {
    const lingering = await closeDataSource(this.dataSource).catch((e: Error) => {
      logger.warn(`closing the pool: ${e.message}`);
      return [];
    });
    if (lingering.length) {
      logger.error(
        `closing the pool: ${lingering.length} connection(s) to Postgres had not closed ${POOL_CLOSE_TIMEOUT_MS / 1000} s after the goodbye and were cut (last ran: ${lingering.map((c) => c.lastQuery).join(' | ')})`,
      );
    }
    await this.embedded?.stop();
  }
}
