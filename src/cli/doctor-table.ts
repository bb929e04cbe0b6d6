// `loupe doctor`'s readable output: the server line, one row per model, then every finding that is
// not ok (all of them with --verbose would be noise: the JSON has them).
import { worstLevel } from '../provider/ollama/doctor/doctor-judgement';
import type { DoctorReport, Finding, ModelReport } from '../provider/ollama/doctor/doctor-types';

const MARK = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;
const gb = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1e9).toFixed(1)} GB`);
const ms = (v: number | null | undefined) => (v === null || v === undefined ? '-' : `${Math.round(v)}`);

function probeCell(m: ModelReport): string {
  if (!m.probe) return 'skipped';
  if (!m.probe.ok) return 'failed';
  const l = m.probe.latency;
  return `${ms(l.ttfbMs)}/${ms(l.loadMs)}/${ms(l.promptEvalMs)}/${ms(l.evalMs)}`;
}

function row(cells: string[], widths: number[]): string {
  return cells
    .map((c, i) => c.padEnd(widths[i]))
    .join('  ')
    .trimEnd();
}

const findingLine = (f: Finding, subject?: string) => `  ${MARK[f.level]}  ${subject ? `${subject}: ` : ''}${f.check}: ${f.message}`;

export function renderDoctorReport(r: DoctorReport): string {
  const lines: string[] = [];
  lines.push(`host     ${r.host}${r.standin ? '  (stand-in started for this check: OLLAMA_HOST is unset)' : ''}`);
  lines.push(`version  ${r.version ?? '-'}`);
  lines.push(`slots    limit ${r.slotLimit.maxWeight} (${r.slotLimit.source})`);
  lines.push(`num_ctx  ${r.numCtx.map((n) => `${n.value} (${n.source})`).join(', ')}`);
  if (r.models.length) {
    const header = ['', 'MODEL', 'PARAMS', 'QUANT', 'SIZE', 'CONTEXT', 'TOOLS', 'WEIGHT', 'CAPABILITIES', 'PROBE ms ttfb/load/prompt/eval'];
    const rows = r.models.map((m) => [
      MARK[worstLevel(m.findings)],
      m.model,
      m.parameterSize ?? '-',
      m.quantization ?? '-',
      gb(m.sizeBytes),
      m.contextLength === null ? '-' : String(m.contextLength),
      m.toolMode.mode,
      `${m.slotWeight}/${r.slotLimit.maxWeight}`,
      m.capabilities?.join(',') ?? '?',
      probeCell(m),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((c) => c[i].length)));
    lines.push('', row(header, widths), ...rows.map((c) => row(c, widths)));
  }
  const problems = [
    ...r.findings.filter((f) => f.level !== 'ok').map((f) => findingLine(f)),
    ...r.models.flatMap((m) => m.findings.filter((f) => f.level !== 'ok').map((f) => findingLine(f, m.model))),
  ];
  lines.push('', problems.length ? 'findings:' : 'no problems found', ...problems);
  lines.push('', `verdict: ${r.level}`);
  return `${lines.join('\n')}\n`;
}
