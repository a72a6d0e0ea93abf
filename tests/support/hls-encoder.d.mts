export declare function hlsEncoderArgs(out: string, o: { seconds: number; type: "fmp4" | "mpegts"; prefix: string; listSize: number; flags?: string[] }): string[];
