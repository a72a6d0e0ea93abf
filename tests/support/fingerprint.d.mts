import type { DeviceFingerprint } from "../../src/contracts/access.ts";

export function makeFingerprint(overrides?: Partial<DeviceFingerprint>): DeviceFingerprint;
