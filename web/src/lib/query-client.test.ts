import { expect, test } from "bun:test";
import { MutationObserver } from "@tanstack/react-query";
import type { ToastInput } from "@/hooks/use-toast";
import { ApiError } from "./api-client";
import { createQueryClient, mutationErrorToast, serverMessageOr, type ErrorToast } from "./query-client";

const refused = (body: string) => new ApiError(409, body, "Conflict");

test("queries load once: no refetch on focus or interval, always fresh, no retry", () => {
  const queries = createQueryClient().getDefaultOptions().queries;
  expect(queries?.refetchOnWindowFocus).toBe(false);
  expect(queries?.refetchInterval).toBe(false);
  expect(queries?.staleTime).toBe(Infinity);
  expect(queries?.retry).toBe(false);
});

test("a worded failure is the description of the toast titled Error", () => {
  expect(mutationErrorToast(refused('{"error":"Taken"}'), "Failed to unban user.")).toEqual({ variant: "destructive", title: "Error", description: "Failed to unban user." });
});

test("serverMessageOr says the server's words when it gives some, else the fallback", () => {
  const wording = serverMessageOr("Failed to ban user.");
  expect(mutationErrorToast(refused('{"error":"Already banned"}'), wording)?.description).toBe("Already banned");
  expect(mutationErrorToast(refused("not json"), wording)?.description).toBe("Failed to ban user.");
  expect(mutationErrorToast(new TypeError("Failed to fetch"), wording)?.description).toBe("Failed to ban user.");
});

test("a wording with a title of its own keeps it", () => {
  const wording: ErrorToast = () => ({ title: "Login failed", description: "Invalid username or password" });
  expect(mutationErrorToast(new Error("401"), wording)).toEqual({ variant: "destructive", title: "Login failed", description: "Invalid username or password" });
});

test("a failure the screen shows itself gets no toast", () => {
  expect(mutationErrorToast(new Error("x"), false)).toBeNull();
  expect(mutationErrorToast(new Error("x"), () => null)).toBeNull();
});

test("a mutation that words nothing shows the server's words, else a plain apology", () => {
  expect(mutationErrorToast(refused('{"error":"Too many requests"}'), undefined)?.description).toBe("Too many requests");
  expect(mutationErrorToast(new Error("x"), undefined)?.description).toBe("Something went wrong. Please try again.");
});

test("the query client shows a failed mutation's toast once, as its meta words it", async () => {
  const shown: ToastInput[] = [];
  const client = createQueryClient((input) => shown.push(input));
  const observer = new MutationObserver(client, {
    mutationFn: () => Promise.reject(refused('{"error":"Code already revoked"}')),
    meta: { errorToast: serverMessageOr("Failed to revoke access code.") },
  });
  await observer.mutate(undefined).catch(() => {});
  expect(shown).toEqual([{ variant: "destructive", title: "Error", description: "Code already revoked" }]);
});

test("the query client shows nothing for a mutation that succeeds or opts out", async () => {
  const shown: ToastInput[] = [];
  const client = createQueryClient((input) => shown.push(input));
  await new MutationObserver(client, { mutationFn: () => Promise.resolve("ok"), meta: { errorToast: "Failed." } }).mutate(undefined);
  await new MutationObserver(client, { mutationFn: () => Promise.reject(new Error("x")), meta: { errorToast: false } }).mutate(undefined).catch(() => {});
  expect(shown).toEqual([]);
});
