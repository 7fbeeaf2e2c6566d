/** Why an agent's pinned binary is not here, and whether this run must have it (CI, or the suite's own flag). */
export interface MissingBinary {
  missing: string;
  required: boolean;
}

/**
 * An agent fixture's body: hands the located binary to the test through `provide`. Without one the test is
 * skipped, or fails where the binary is required, so a CI machine missing it never passes by skipping.
 */
export async function provideLocated<T extends object>(
  located: T | MissingBinary,
  provide: (install: T) => Promise<void>,
  testInfo: { skip(condition: boolean, description: string): void },
): Promise<void> {
  if ('missing' in located) {
    if (located.required) throw new Error(located.missing);
    testInfo.skip(true, located.missing);
    return;
  }
  await provide(located);
}
