/**
 * Renders its children once their place on the page scrolls into view; until then an empty box of their
 * height holds the place. For heavy parts below the fold (the home page's map), whose code should not
 * weigh on the first screen.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box } from '@mui/material';

const VISIBLE_SHARE = 0.2;

export function WhenVisible({ height, testId, children }: { height: number; testId?: string; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  // Without IntersectionObserver (old browsers) there is nothing to wait for.
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (seen || !place.current) return;
    // A fifth in view, not an edge: a part that starts right at the bottom of the window waits for a scroll.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.intersectionRatio >= VISIBLE_SHARE)) setSeen(true);
      },
      { threshold: VISIBLE_SHARE },
    );
    observer.observe(place.current);
    return () => observer.disconnect();
  }, [seen]);
  if (seen) return <>{children}</>;
  return <Box ref={place} data-testid={testId} sx={{ height }} />;
}
