// What the dashboard checks need to know about a PromQL expression, read from Prometheus' own Lezer grammar
// rather than from regular expressions.
import { parser } from '@prometheus-io/lezer-promql';

type SyntaxNode = ReturnType<typeof parser.parse>['topNode'];

export interface Matcher {
  readonly name: string;
  readonly op: string;
  /** The literal's content, without quotes or escapes resolved (dashboard values are plain). */
  readonly value: string;
}

export interface Selector {
  readonly metric: string;
  readonly matchers: readonly Matcher[];
  readonly text: string;
}

export interface RangeCall {
  readonly fn: string;
  readonly range: string;
}

export interface ParsedPromql {
  /** Text around each syntax error; empty when the expression parses. */
  readonly errors: readonly string[];
  readonly selectors: readonly Selector[];
  /** Calls of rate(), irate() and increase() with the range of their matrix selector. */
  readonly rateCalls: readonly RangeCall[];
}

const RATE_FUNCTIONS = new Set(['rate', 'irate', 'increase']);

export function parsePromql(expr: string): ParsedPromql {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const selectors: Selector[] = [];
  const rateCalls: RangeCall[] = [];
  const text = (n: SyntaxNode): string => expr.slice(n.from, n.to);

  tree.iterate({
    enter: (ref) => {
      const node = ref.node;
      if (ref.type.isError)
        errors.push(`at ${ref.from}: …${expr.slice(Math.max(0, ref.from - 20), ref.to + 20)}…`);
      else if (ref.name === 'VectorSelector') selectors.push(selector(node, text));
      else if (ref.name === 'FunctionCall') {
        const fn = node.getChild('FunctionIdentifier');
        const matrix = node.getChild('FunctionCallBody')?.getChild('MatrixSelector');
        const range = matrix?.getChild('DurationExpr');
        if (fn && RATE_FUNCTIONS.has(text(fn)))
          rateCalls.push({ fn: text(fn), range: range ? text(range) : '' });
      }
    },
  });
  return { errors, selectors, rateCalls };
}

function selector(node: SyntaxNode, text: (n: SyntaxNode) => string): Selector {
  const identifier = node.getChild('Identifier');
  const matchers: Matcher[] = [];
  for (const m of node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher') ?? []) {
    const name = m.getChild('LabelName');
    const op = m.getChild('MatchOp');
    const value = m.getChild('StringLiteral');
    if (name && op && value)
      matchers.push({ name: text(name), op: text(op), value: text(value).slice(1, -1) });
  }
  return { metric: identifier ? text(identifier) : '', matchers, text: text(node) };
}

const COMPARISONS = new Set(['Gtr', 'Lss', 'Gte', 'Lte', 'Eql', 'Neq']);

/**
 * The measured side of an alert condition: `x > 0.3` gives `x`. A healthy system makes the condition empty, so
 * the operand is what proves that the alert reads series that exist.
 */
export function comparisonOperand(expr: string): string {
  const top = parser.parse(expr).topNode.firstChild;
  if (top?.name !== 'BinaryExpr') return expr;
  const left = top.firstChild;
  const op = left?.nextSibling;
  return left && op && COMPARISONS.has(op.name) ? expr.slice(left.from, left.to) : expr;
}
