// Whether Postgres answers a query right now: what liveness and readiness report. The one place that
// queries the database for that, so the health endpoints hold no SQL.
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Injectable()
export class DatabaseProbe {
  constructor(private readonly dataSource: DataSource) {}

  /** 'up' once a trivial query round-trips; 'down' on any error (refused, pool exhausted, server gone). */
  answers(): Promise<'up' | 'down'> {
    return this.dataSource.query('SELECT 1').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  }
}
