import { Injectable } from '@nestjs/common';
import { Subject } from 'rxjs';

/**
 * Whether the database can still be reached at all. A failure here is final for this process (the
 * embedded server died and could not be restarted): the journal stops waiting and spills, the eval
 * stops scheduling trials and reports what it has.
 */
@Injectable()
export class DatabaseHealth {
  private error?: Error;
  readonly failed$ = new Subject<Error>();
  /** the embedded server died and came back (recorded by the journal as database_restarted) */
  readonly restarted$ = new Subject<{ downMs: number; port: number; previousPid: number }>();

  get failure(): Error | undefined {
    return this.error;
  }

  fail(error: Error): void {
    if (this.error) return;
    this.error = error;
    this.failed$.next(error);
  }
}
