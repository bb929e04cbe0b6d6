// The personas a `sim:<name>` model can name: the shipped set in the repo's personas/ plus any
// directories a run adds (`--personas DIR`, LOUPE_PERSONAS_DIR). A persona is named by its file;
// a later directory's persona of the same name wins.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadPersonaFile, personaNameOf } from './persona-file';
import { UnknownPersonaError } from './persona-errors';
import type { Persona } from './sim-types';

/** The nearest directory above `from` holding package.json and personas/ (from src/sim and dist/src/sim alike). */
function shippedDir(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'personas'))) return path.join(dir, 'personas');
    if (path.dirname(dir) === dir) return path.resolve(from, '..', '..', 'personas');
  }
}

/** The repo's personas/ directory (absolute). */
export const SHIPPED_PERSONAS_DIR = shippedDir(__dirname);

const PERSONA_FILE = /\.ya?ml$/i;

function filesIn(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => PERSONA_FILE.test(f));
  } catch {
    return [];
  }
}

/** Every persona name the directories hold, sorted. */
export function listPersonas(dirs: string[] = [SHIPPED_PERSONAS_DIR]): string[] {
  return [...new Set(dirs.flatMap((dir) => filesIn(dir).map(personaNameOf)))].sort();
}

/** The persona of that name (the last directory holding it wins); an UnknownPersonaError lists the known ones and a close match. */
export function findPersona(name: string, dirs: string[] = [SHIPPED_PERSONAS_DIR]): Persona {
  for (const dir of [...dirs].reverse()) {
    const file = filesIn(dir).find((f) => personaNameOf(f) === name);
    if (file) return loadPersonaFile(path.join(dir, file));
  }
  throw new UnknownPersonaError(name, listPersonas(dirs));
}
