/** @rampart/webshell: the web-shell (trojan) scanning engine. */
export { scanFile, scanBytes, type ScanContext } from './scan-file.ts';
export { scanTree, defaultTimeBudgetMs, type TreeScanOptions, type TreeScanSummary } from './scan-tree.ts';
export { ScanPool, type PoolInit } from './pool.ts';
export { builtinRuleSet, reloadBuiltinRuleSet, loadRuleSet, compileCustomRules, parseHashList, parseRuleHeader, builtinRulesDir, type RuleSet, type CustomRules } from './signatures.ts';
export { classify, extensionOf, isImageMagic } from './classify.ts';
export { readBounded } from './read.ts';
export { walkTree } from './walk.ts';
export { pathFromBytes, bytesOfPath, canonicalPath } from './path-bytes.ts';
export { openDirEntries, type DirEntry } from './dir-entries.ts';
export { whitelistMatcher } from './whitelist.ts';
export { defaultParserMaxBytes } from './analyse/index.ts';
