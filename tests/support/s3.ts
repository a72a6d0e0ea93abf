import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

/** A local S3-compatible server (s3rver, files in a temp directory) with one bucket, for the recordings. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  client: Bun.S3Client;
  /** The flags' values an app needs to keep recordings there under `prefix`. */
  config(prefix: string): { recordingsUrl: string; s3Endpoint: string; s3Region: string; s3AccessKeyId: string; s3SecretAccessKey: string };
  close(): Promise<void>;
}

export async function startTestS3(bucket = "recordings"): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "dreadcast-s3-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's fixed credentials.
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER", region: "us-east-1" };
  return {
    endpoint,
    bucket,
    client: new Bun.S3Client({ endpoint, bucket, ...credentials }),
    config: (prefix) => ({
      recordingsUrl: `s3://${bucket}/${prefix}`,
      s3Endpoint: endpoint,
      s3Region: credentials.region,
      s3AccessKeyId: credentials.accessKeyId,
      s3SecretAccessKey: credentials.secretAccessKey,
    }),
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
