/**
 * The longest value the engine reads whole: inspect.ts cuts a longer one to its head and tail before
 * the detectors see it. Detectors that scan a value by hand stop at the same length, so a value
 * handed to them directly (detectXssValue and the like) costs no more than one the engine hands them.
 */
export const maxScannedValue = 256 * 1024;

/** The part of a value a detector scans. */
export function scannedPart(value: string): string {
  return value.length > maxScannedValue ? value.slice(0, maxScannedValue) : value;
}
