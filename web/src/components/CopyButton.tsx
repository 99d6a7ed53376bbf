import { ActionIcon, Tooltip } from '@mantine/core';
import { toast } from './toast';

/** Copies `text` and says so in a toast ("Copied!", or "Failed to copy to clipboard"). */
export async function copyToClipboard(text: string, copiedMessage: string, errorTitle = 'Error') {
  try {
    await navigator.clipboard.writeText(text);
    toast.success('Copied!', copiedMessage);
  } catch {
    toast.error(errorTitle, 'Failed to copy to clipboard');
  }
}

function CopyIcon() {
  return (
    <svg
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      <rect x="9" y="9" width="13" height="13" rx="2" />
      <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
    </svg>
  );
}

/** An icon button that copies a short URL; `label` names it for screen readers ("Copy https://…"). */
export function CopyUrlButton({ url, copiedMessage }: { url: string; copiedMessage: string }) {
  const label = `Copy ${url}`;
  return (
    <Tooltip label="Copy">
      <ActionIcon
        variant="light"
        size="lg"
        aria-label={label}
        onClick={() => void copyToClipboard(url, copiedMessage)}
      >
        <CopyIcon />
      </ActionIcon>
    </Tooltip>
  );
}
