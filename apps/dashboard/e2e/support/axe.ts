import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/*
 * axe-core's WCAG 2.1 A and AA rules, as the accessibility tests ask them (a11y.browser-spec.ts): a serious or
 * critical violation is one line with its rule, the element and, for colour contrast, the colours and the ratio.
 */

type AxeResults = Awaited<ReturnType<AxeBuilder['analyze']>>;
type NodeResult = AxeResults['violations'][number]['nodes'][number];

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

interface ContrastData {
  fgColor?: string;
  bgColor?: string;
  contrastRatio?: number;
  expectedContrastRatio?: string;
  fontSize?: string;
  fontWeight?: string;
}

/** One line per element: the rule, where, and for colour contrast the numbers axe measured. */
function describeNode(id: string, node: NodeResult): string {
  const where = node.target.map(String).join(' ');
  const contrast = node.any.find((check) => check.id === 'color-contrast')?.data as ContrastData | undefined;
  if (!contrast?.contrastRatio) return `${id} ${where}: ${node.failureSummary?.replace(/\s+/g, ' ') ?? ''}`;
  return `${id} ${where}: ${contrast.fgColor} on ${contrast.bgColor} = ${contrast.contrastRatio}:1, needs ${contrast.expectedContrastRatio} (${contrast.fontSize}, weight ${contrast.fontWeight})`;
}

/** The page's serious and critical violations, one line per element. */
export async function violations(page: Page): Promise<string[]> {
  const results: AxeResults = await new AxeBuilder({ page })
    .withTags(WCAG_21_AA)
    // WCAG 2.5.3 "Label in Name": axe ships the rule as experimental, off unless asked for.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return results.violations
    .filter((v) => FAILING_IMPACTS.has(v.impact ?? ''))
    .flatMap((v) => v.nodes.map((node) => describeNode(v.id, node)));
}
