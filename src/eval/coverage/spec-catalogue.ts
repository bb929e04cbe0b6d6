// The checkable items of a spec, each with a stable id (`direct-process#invariant-2`): its
// Invariants, Behavioral Examples, Error Cases and workflow steps, and for a spec without a
// "Behavioral Examples" heading its numbered requirements. Scenarios name the items they check in
// `covers:`, tests in a `// covers: <id>` comment; `loupe eval --coverage` lists every item with them.
import { headingAnchor } from './spec-examples';

export type SpecItemKind = 'invariant' | 'example' | 'error' | 'step' | 'requirement' | 'component';

export interface SpecItem {
  /** `<spec key>#<kind>-<number or slug>`: stable while the spec keeps the item's number or name */
  id: string;
  /** the spec's file name */
  spec: string;
  kind: SpecItemKind;
  title: string;
  /** for a Behavioral Example, its heading's anchor (what a scenario's `spec:` names) */
  anchor?: string;
}

/** `direct-process.spec.md` → `direct-process`. */
export function specKey(file: string): string {
  return file.replace(/\.spec\.md$|\.md$/, '');
}

function slug(text: string): string {
  return headingAnchor(text.replace(/`/g, '')).replace(/-+/g, '-').replace(/^-|-$/g, '');
}

/** `**Title**: rest` or `**Title** - rest` → Title; else the text up to a colon. */
function boldTitle(text: string): string {
  const bold = /^\*\*(.+?)\*\*/.exec(text.trim());
  return (bold ? bold[1] : text.split(/:\s/)[0]).replace(/:$/, '').trim();
}

function sentenceCase(text: string): string {
  const t = text.trim().toLowerCase();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A heading without its section number: `## 4. Error Matrix` → `Error Matrix`. */
function headingText(line: string): string {
  return line
    .replace(/^#+\s*/, '')
    .replace(/^\d+\.\s*/, '')
    .trim();
}

/**
 * Reads the items from a spec's markdown. What counts, by heading:
 * - `Invariants`: each numbered item → `invariant-N`
 * - `Behavioral Examples`: each `### Scenario:` → `example-<slug>`
 * - `Error Cases`, `Error Matrix`, `Error Handling`: each table row or `- **Name**:` bullet → `error-<slug>`
 * - `Workflow`: each numbered item → `step-N`; and a diagram's numbered `// N. STEP` comments → `step-N`
 * - a numbered `#### N. Component` heading → `component-N`
 * - under `Handling … Events`, each `###` event handler → `step-<slug>`
 * - with no Behavioral Examples section, the numbered items of `Overview` → `requirement-N`
 */
export function parseSpecItems(file: string, markdown: string): SpecItem[] {
  const key = specKey(file);
  const hasExamples = /^##\s+Behavioral Examples\s*$/im.test(markdown);
  const items: SpecItem[] = [];
  const seen = new Set<string>();
  const add = (kind: SpecItemKind, suffix: string, title: string, anchor?: string) => {
    const id = `${key}#${kind}-${suffix}`;
    if (seen.has(id)) return;
    seen.add(id);
    items.push({ id, spec: file, kind, title, ...(anchor ? { anchor } : {}) });
  };
  let section = '';
  let parent = '';
  let inCode = false;
  let headerRow = false;
  for (const raw of markdown.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*```/.test(line)) {
      inCode = !inCode;
      continue;
    }
    if (inCode) {
      // the loop diagram's numbered steps: `│    // 1. MID-LOOP MESSAGE INJECTION (Claude Code feature)   │`
      const step = /\/\/\s*(\d+)\.\s+([A-Z][A-Z0-9 '-]*[A-Z0-9])/.exec(line);
      if (step && /overview/i.test(section)) add('step', step[1], sentenceCase(step[2]));
      continue;
    }
    const heading = /^(#{2,4})\s+(.*)$/.exec(line);
    if (heading) {
      const text = headingText(line);
      const component = /^####\s+(\d+)\.\s+(.*)$/.exec(line);
      if (component) add('component', component[1], component[2].trim());
      const scenario = /^###\s+(Scenario:.*)$/.exec(line);
      if (scenario && /behavioral examples/i.test(section)) {
        const title = scenario[1].replace(/^Scenario:\s*/, '');
        add('example', slug(title), title, headingAnchor(scenario[1]));
        continue;
      }
      // the stream processor's event handlers (`### Text Delta` under `## Handling Stream Events`)
      if (heading[1] === '###' && /^handling .*events$/i.test(parent)) add('step', slug(text), text);
      if (heading[1] === '##') parent = text;
      if (heading[1] === '##' || !/behavioral examples/i.test(section)) section = text;
      headerRow = true;
      continue;
    }
    const numbered = /^(\d+)\.\s+(.*)$/.exec(line);
    if (numbered) {
      if (/^invariants$/i.test(section)) add('invariant', numbered[1], boldTitle(numbered[2]));
      else if (/^workflow$/i.test(section)) add('step', numbered[1], boldTitle(numbered[2]));
      else if (!hasExamples && /^overview$/i.test(section)) add('requirement', numbered[1], boldTitle(numbered[2]));
      continue;
    }
    if (/^error (cases|matrix|handling)$/i.test(section)) {
      const row = /^\|(.+?)\|/.exec(line);
      if (row) {
        const cell = row[1].trim();
        // the first row of a table is its header, the second its rule
        if (headerRow || /^[-: ]+$/.test(cell)) {
          headerRow = false;
          continue;
        }
        add('error', slug(cell), cell.replace(/`/g, ''));
        continue;
      }
      const bullet = /^\s*-\s+\*\*(.+?)\*\*:?/.exec(line);
      if (bullet) add('error', slug(bullet[1]), bullet[1].replace(/:$/, ''));
    }
  }
  return items;
}

/** Every spec's items, in file-name order. */
export function catalogueOf(specs: ReadonlyArray<{ file: string; markdown: string }>): SpecItem[] {
  return [...specs].sort((a, b) => a.file.localeCompare(b.file)).flatMap((s) => parseSpecItems(s.file, s.markdown));
}
