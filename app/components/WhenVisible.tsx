/**
 * Renders its children once their place on the page scrolls into view; until then an empty box of their
 * height holds the place. For heavy parts below the fold (the home page's map), whose code should not
 * weigh on the first screen.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box } from '@mui/material';

export function WhenVisible({ height, testId, children }: { height: number; testId?: string; children: ReactNode }) {
  const place = useRef<HTMLDivElement>(null);
  // Without IntersectionObserver (old browsers) there is nothing to wait for.
  const [seen, setSeen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (seen || !place.current) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true);
    });
    observer.observe(place.current);
    return () => observer.disconnect();
  }, [seen]);
  if (seen) return <>{children}</>;
  return <Box ref={place} data-testid={testId} sx={{ height }} />;
}
