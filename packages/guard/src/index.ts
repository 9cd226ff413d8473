export { planGuard, opBits, type GuardNamingRule, type GuardPlanInput, type GuardRuleSource, type GuardSourceRule, type GuardPlanResult, type GuardRuleStates, type GuardTamperRule, type ResolvedExe, type ResolvedPath } from './plan.ts';
export { cleanPath, isAtOrBelow, nameMatch, pathQuery, processMatches, splitSubPath, type PathQuery, type SubPath } from './paths.ts';
export { guardFingerprint, hostResolveRoots, resolveExecutables, resolveGuard, resolvePaths, type GuardResolution, type ResolveRoots, type WatchedPath } from './resolve.ts';
export { GuardHelperClient, GuardHelperError, type GuardApplied, type GuardHelperClientOptions } from './helper-client.ts';
export { DenialRecorder, denialEvent, denialModule, denialNotice, netDenialEvent, netDenialNotice, type DenialRecorderOptions } from './denials.ts';
export { planNet, rangeToCidrs, type GuardProcessRule, type NetPlanInput, type NetPlanResult } from './net-plan.ts';
