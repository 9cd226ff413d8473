export { parseSimulate, parseStanzas, parsePackageMeta, parseStatusLine, parseGetLine, isLockFailure, isPermissionFailure, aptError, parseRelease, releaseKeys, parseChangelogHead, type PlannedUpgrade, type PackageMeta, type StatusLine } from './apt-parse.ts';
export { patchLevel } from './level.ts';
export { runApt, hostApt, type AptConfig, type AptRunResult } from './apt-run.ts';
export { checkUpdates, downloadUpdates, installUpdates, aptDirs, debFileName, debChangelogHead, type PatchCandidate, type CheckOutcome, type JobOutcome, type JobEvents, type AptFailure } from './apt-jobs.ts';
export { DownloadTracker, parseAptSize, type PackageDownload } from './download-progress.ts';
