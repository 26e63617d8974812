/**
 * The profile's digital-rain background: columns of glyphs falling on a canvas, drawn with
 * requestAnimationFrame at a steady speed whatever the frame rate. It stops while the tab is hidden and
 * draws one still frame when the user prefers reduced motion.
 */
import { useEffect, useRef } from 'react';

const GLYPHS = '0123456789ABCDEF全息档案人员研判通话关系租住开锁轨迹';
const FONT = 14;
/** Rows per second a drop falls. */
const SPEED = 20;

export function DigitalRain({ opacity = 0.35 }: { opacity?: number }) {
  const ref = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = ref.current;
    const g = canvas?.getContext('2d');
    if (!canvas || !g) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    let drops: number[] = [];
    let frame = 0;
    let last = 0;

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const { clientWidth: w, clientHeight: h } = canvas;
      canvas.width = Math.max(1, Math.floor(w * ratio));
      canvas.height = Math.max(1, Math.floor(h * ratio));
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      const columns = Math.ceil(w / FONT);
      drops = Array.from({ length: columns }, (_, i) => drops[i] ?? Math.random() * (h / FONT));
      g.fillStyle = '#020d08';
      g.fillRect(0, 0, w, h);
    };
    let pending = 0;
    /** One step: fade what is there a little, then each drop writes one glyph and falls one row. */
    const step = () => {
      const { clientWidth: w, clientHeight: h } = canvas;
      g.fillStyle = 'rgba(2, 13, 8, 0.12)';
      g.fillRect(0, 0, w, h);
      g.font = `${FONT}px monospace`;
      for (let i = 0; i < drops.length; i++) {
        const y = drops[i] * FONT;
        g.fillStyle = Math.random() < 0.08 ? '#d8ffe6' : '#19d27a';
        g.fillText(GLYPHS[(Math.random() * GLYPHS.length) | 0], i * FONT, y);
        drops[i] += 1;
        if (y > h && Math.random() > 0.95) drops[i] = 0;
      }
    };
    // Steps happen at SPEED per second whatever the frame rate, so the rain falls at one speed everywhere.
    const draw = (dt: number) => {
      pending += dt * SPEED;
      for (; pending >= 1; pending--) step();
    };
    const still = () => {
      resize();
      for (let k = 0; k < 60; k++) step();
    };
    const tick = (t: number) => {
      const dt = last ? Math.min((t - last) / 1000, 0.1) : 1 / 60;
      last = t;
      draw(dt);
      frame = requestAnimationFrame(tick);
    };
    const start = () => {
      if (reduced || frame || document.hidden) return;
      last = 0;
      frame = requestAnimationFrame(tick);
    };
    const stop = () => {
      cancelAnimationFrame(frame);
      frame = 0;
    };
    const onVisibility = () => (document.hidden ? stop() : start());

    if (reduced) still();
    else resize();
    start();
    const observer = new ResizeObserver(() => (reduced ? still() : resize()));
    observer.observe(canvas);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);

  return <canvas ref={ref} data-testid="digital-rain" aria-hidden style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', opacity, pointerEvents: 'none' }} />;
}
