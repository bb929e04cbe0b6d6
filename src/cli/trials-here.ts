// What a command that runs trials in this process sets up first: the processes its trials start are
// recorded under LOUPE_HOME (ended on exit; swept by the next start after a kill -9), and those a
// killed Loupe left behind are ended now.
import { recordChildrenUnder } from '../common/children/child-registry';
import { sweepLeftChildren } from '../common/children/child-sweep';

export function trialsRunHere(home: string): void {
  sweepLeftChildren(home, (line) => process.stderr.write(`${line}\n`));
  recordChildrenUnder(home);
}
