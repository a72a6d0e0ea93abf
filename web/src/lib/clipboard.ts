import { toast, toastError } from "@/hooks/use-toast";

/**
 * Copies `text` and says so, or says to copy it by hand (the clipboard needs HTTPS or localhost). `what`
 * names it in a sentence: "the invite link", "your recovery codes".
 */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: "Copied!", description: `Now on your clipboard: ${what}.` });
    return true;
  } catch {
    toastError(`Could not reach the clipboard. Select ${what} and copy by hand.`);
    return false;
  }
}
