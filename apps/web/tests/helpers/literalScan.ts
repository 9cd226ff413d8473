import ts from 'typescript';

/** Props whose string values a user reads: they must come from t(), never a literal. */
export const visibleProps = new Set([
  'title', 'placeholder', 'label', 'okText', 'cancelText', 'content', 'message', 'description', 'tooltip',
  'alt', 'aria-label', 'extra', 'addonAfter', 'addonBefore', 'subTitle', 'checkedChildren', 'unCheckedChildren', 'children',
]);

/** A letter (any script) or a CJK character: text a user would read. */
const readable = /[\p{L}\u4e00-\u9fff]/u;

export interface Finding {
  file: string;
  line: number;
  text: string;
}

function literalText(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isJsxExpression(node)) return literalText(node.expression);
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
  return undefined;
}

function propName(name: ts.Node): string | undefined {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName(name)) return `${name.namespace.text}:${name.name.text}`;
  return undefined;
}

/**
 * Finds user-visible literals in source: JSX text with a letter or CJK character, and string literals
 * given to visible props, whether as JSX attributes or as object properties (Modal.confirm({title})).
 */
export function scanSource(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const findings: Finding[] = [];
  const add = (node: ts.Node, text: string) =>
    findings.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim() });

  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && readable.test(node.text)) add(node, node.text);
    if (ts.isJsxAttribute(node)) {
      const name = propName(node.name);
      const text = literalText(node.initializer);
      if (name && visibleProps.has(name) && text !== undefined && readable.test(text)) add(node, text);
    }
    if (ts.isPropertyAssignment(node)) {
      const name = propName(node.name);
      const text = literalText(node.initializer);
      if (name && visibleProps.has(name) && text !== undefined && readable.test(text)) add(node, text);
    }
    // {'literal'} as a JSX child
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const text = literalText(node.expression);
      if (text !== undefined && readable.test(text)) add(node, text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
