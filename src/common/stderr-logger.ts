import { ConsoleLogger, type LogLevel } from '@nestjs/common';

/** Nest's console logger, writing every level to stderr so command output on stdout stays clean. */
export class StderrLogger extends ConsoleLogger {
  constructor(context: string, options: { logLevels: LogLevel[] }) {
    // colours only on a terminal: logs in files and CI stay plain text
    super(context, { ...options, colors: Boolean(process.stderr.isTTY) });
  }

  protected override printMessages(messages: unknown[], context = '', logLevel: LogLevel = 'log'): void {
    super.printMessages(messages, context, logLevel, 'stderr');
  }
}

export function logLevelsFrom(level: 'error' | 'warn' | 'log' | 'debug'): LogLevel[] {
  const order: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  return order.slice(0, order.indexOf(level) + 1);
}
