// Which Behavioral Examples of the specs have a scenario. A scenario names its spec and example in
// `spec:` (`direct-process.spec.md#scenario-normal-tool-loop-completion`, the heading's anchor).
// The examples come from the specs themselves when a directory of them is given, else from the
// catalogue checked in beside the scenarios (users have the scenarios, not always the specs).
export interface BehavioralExample {
  spec: string;
  title: string;
  /** the heading's anchor, as `spec:` writes it */
  anchor: string;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The `### Scenario: …` headings under a spec's "Behavioral Examples" section. */
export function parseBehavioralExamples(spec: string, markdown: string): BehavioralExample[] {
  const examples: BehavioralExample[] = [];
  let inSection = false;
  for (const line of markdown.split('\n')) {
    const h2 = /^##\s+(.*)$/.exec(line);
    if (h2 && !line.startsWith('###')) inSection = /behavioral examples/i.test(h2[1]);
    const h3 = /^###\s+(Scenario:.*)$/.exec(line);
    if (inSection && h3) examples.push({ spec, title: h3[1].replace(/^Scenario:\s*/, ''), anchor: headingAnchor(h3[1]) });
  }
  return examples;
}

export interface CoverageRow {
  example: BehavioralExample;
  scenarios: string[];
}

export function exampleCoverage(
  examples: readonly BehavioralExample[],
  scenarios: ReadonlyArray<{ id: string; spec: string }>,
): CoverageRow[] {
  return examples.map((example) => ({
    example,
    scenarios: scenarios.filter((s) => s.spec === `${example.spec}#${example.anchor}`).map((s) => s.id),
  }));
}
