import { type DynamicModule, Global, Module } from '@nestjs/common';
import { fallbackDataRoot } from '../database/embedded/postgres-binaries';
import { protectFromTools } from '../tools/sandbox/tool-isolation-host';
import { loadConfig, type LoupeConfig } from './loupe-config';

export const LOUPE_CONFIG = Symbol('LOUPE_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  /** The config is validated before Nest starts (so a bad variable fails fast); tests pass their own. */
  static forRoot(config: LoupeConfig = loadConfig()): DynamicModule {
    // the admin token, the Postgres credentials and data, every session's workspace: no tool may read them
    protectFromTools(config.home, fallbackDataRoot(config.home));
    return {
      module: ConfigModule,
      providers: [{ provide: LOUPE_CONFIG, useValue: config }],
      exports: [LOUPE_CONFIG],
    };
  }
}
