/**
 * The storage layer is asynchronous, so a forgotten `await` is a bug that the type checker does not always
 * see. ESLint's promise rules catch most (`npm run lint`): a statement that drops a promise
 * (no-floating-promises), and one tested as a condition, negated or handed where a plain callback goes
 * (no-misused-promises). This lists the rest, where a promise stands for its value: compared (`===`),
 * handed to `expect()` without `.resolves`/`.rejects`, put into an object literal or a string, or asked
 * its `typeof`. It walks the server's, tests' and scripts' TypeScript with the compiler's own type checker.
 */
import ts from "typescript";

const configPath = ts.findConfigFile(process.cwd(), ts.sys.fileExists, "tsconfig.server.json");
if (!configPath) throw new Error("tsconfig.server.json not found");
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

function isPromise(type: ts.Type): boolean {
  if (type.isUnion()) return type.types.some(isPromise);
  const symbol = type.getSymbol() ?? type.aliasSymbol;
  return symbol?.getName() === "Promise" || symbol?.getName() === "PromiseLike";
}

/**
 * Always a promise: what a condition or a comparison must not test. (A promise that may be absent is
 * tested for being there; React's node type may be a promise among other things.)
 */
function onlyPromise(type: ts.Type): boolean {
  const parts = type.isUnion() ? type.types : [type];
  return parts.length > 0 && parts.every(isPromise);
}

/** `const x: Entry = { … }`, `{ … } satisfies T`, `{ … } as T`: the object's type is written down. */
function declaredType(object: ts.ObjectLiteralExpression): boolean {
  const parent = object.parent;
  return (ts.isVariableDeclaration(parent) && parent.type !== undefined) || ts.isSatisfiesExpression(parent) || ts.isAsExpression(parent);
}

function isFunctionValue(node: ts.Node): boolean {
  return ts.isArrowFunction(node) || ts.isFunctionExpression(node);
}

const problems: string[] = [];
function report(node: ts.Node, what: string) {
  const file = node.getSourceFile();
  const { line, character } = file.getLineAndCharacterOfPosition(node.getStart());
  problems.push(`${file.fileName.replace(process.cwd() + "/", "")}:${line + 1}:${character + 1} ${what}: ${node.getText().slice(0, 90)}`);
}

function visit(node: ts.Node) {
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    const comparing = [
      ts.SyntaxKind.EqualsEqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.EqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsToken,
    ].includes(op);
    if (comparing && (onlyPromise(checker.getTypeAtLocation(node.left)) || onlyPromise(checker.getTypeAtLocation(node.right)))) report(node, "promise compared");
  } else if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "expect" && node.arguments.length === 1) {
    // `expect(promise).toBe(…)` compares the promise, not its value (`.resolves`/`.rejects` say otherwise).
    const parent = node.parent;
    const settles = ts.isPropertyAccessExpression(parent) && (parent.name.text === "resolves" || parent.name.text === "rejects");
    if (!settles && onlyPromise(checker.getTypeAtLocation(node.arguments[0]!))) report(node.arguments[0]!, "promise expected");
  } else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isObjectLiteralExpression(node.parent)) {
    // `{ total: service.total() }`: a promise where a value was meant (unless the object has a declared type).
    const value = ts.isPropertyAssignment(node) ? node.initializer : node.name;
    if (onlyPromise(checker.getTypeAtLocation(value)) && !isFunctionValue(value) && !declaredType(node.parent)) report(value, "promise in an object");
  } else if (ts.isTypeOfExpression(node)) {
    if (onlyPromise(checker.getTypeAtLocation(node.expression))) report(node, "typeof a promise");
  } else if (ts.isTemplateSpan(node)) {
    if (onlyPromise(checker.getTypeAtLocation(node.expression))) report(node.expression, "promise in a string");
  }
  ts.forEachChild(node, visit);
}

for (const file of program.getSourceFiles()) {
  // The server, its tests and scripts (tsconfig.server.json), without the libraries they use.
  if (file.isDeclarationFile || file.fileName.includes("/node_modules/")) continue;
  visit(file);
}

if (problems.length > 0) {
  console.error(problems.join("\n"));
  console.error(`${problems.length} promise${problems.length === 1 ? "" : "s"} where a value was meant`);
  process.exit(1);
}
console.log("promises: none compared, expected, or put into an object or a string in place of its value");
