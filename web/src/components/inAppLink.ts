import { useNavigate } from '@tanstack/react-router';
import type { MouseEvent } from 'react';

/**
 * A click handler for an `<a href>` to a page of this app whose route may not be in this build's route
 * tree (the marketplace, the admin console, the signed-in screens): a plain left click navigates inside
 * the app without reloading, any other click (new tab, new window) is left to the browser.
 */
export function useInAppClick(href: string, after?: () => void) {
  const navigate = useNavigate();
  return (event: MouseEvent<HTMLElement>) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    after?.();
    void navigate({ href });
  };
}
