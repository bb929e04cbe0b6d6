// Every migration, in order. Listed as classes (not a glob) so the same list works from ts-jest and dist.
import { InitialSchema1763700000000 } from './1763700000000-initial-schema';

export const MIGRATIONS = [InitialSchema1763700000000];
