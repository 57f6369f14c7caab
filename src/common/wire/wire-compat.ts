/** `spec`: the user specification's shapes; `traffic-ops`: the original's at the points of D5a. */
export type WireCompat = 'spec' | 'traffic-ops';
export const WIRE_COMPAT_MODES: readonly WireCompat[] = ['spec', 'traffic-ops'];
