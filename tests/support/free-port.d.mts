/** A port of 127.0.0.1 that nothing listened on a moment ago: for a server to come back on, or for one that is down. */
export declare function freePort(): Promise<number>;
