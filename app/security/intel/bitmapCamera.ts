/**
 * Camera moves of a large graph shown from its last drawn frame. Without a graphics card (software
 * WebGL, as on many office PCs and virtual desktops) every sigma frame of 20,000 edges costs hundreds
 * of milliseconds, so panning would stutter. While the camera pans or zooms, the frame on screen is
 * moved and scaled by CSS (the compositor's work, no WebGL); the graph is drawn again once the camera
 * rests for a moment. Also the layer composition of the PNG export.
 */
import type Sigma from 'sigma';
import type { CameraState } from 'sigma/types';

/**
 * How long the camera stays still before the graph is drawn again: a redraw blocks input for a frame's
 * time, so while the button is held (a drag that only paused between mouse events) it waits longer.
 */
const REST_MS = 150;
const REST_HELD_MS = 500;
/** sigma's layers, bottom to top ('mouse' only catches events). */
const LAYERS = ['edges', 'edgeLabels', 'nodes', 'labels', 'hovers', 'hoverNodes'];

/**
 * Copies sigma's layers onto one canvas. Called right after a render: WebGL layers keep their frame
 * only until the browser presents it.
 */
export function composeLayers(sigma: Sigma, out: HTMLCanvasElement, background?: string) {
  const layers = sigma.getCanvases();
  const first = layers.edges ?? Object.values(layers)[0];
  if (out.width !== first.width) out.width = first.width;
  if (out.height !== first.height) out.height = first.height;
  const g = out.getContext('2d')!;
  if (background) {
    g.fillStyle = background;
    g.fillRect(0, 0, out.width, out.height);
  } else g.clearRect(0, 0, out.width, out.height);
  for (const name of LAYERS) if (layers[name]) g.drawImage(layers[name], 0, 0);
}

/**
 * Takes over sigma's camera-driven rendering: while `active()` (a large graph), camera moves shift and
 * scale the layers' last frame with a CSS transform — no redraw and no copy of the pixels; otherwise
 * every move renders as sigma does by itself. Returns the cleanup.
 */
export function moveAsBitmap(sigma: Sigma, active: () => boolean): () => void {
  const camera = sigma.getCamera();
  const layers = () => Object.entries(sigma.getCanvases()).filter(([name]) => name !== 'mouse').map(([, c]) => c);

  let drawnAt: CameraState | null = null;
  let restTimer = 0;

  const transform = (value: string) => {
    for (const layer of layers()) {
      layer.style.transformOrigin = '0 0';
      layer.style.transform = value;
    }
  };
  // Every frame drawn is the one the next move shifts; the frame that ends a move drops the shift in
  // the same task, so the browser never shows a new frame shifted or an old one unshifted.
  const drawn = () => {
    transform('');
    drawnAt = active() ? camera.getState() : null;
  };
  sigma.on('afterRender', drawn);

  // Where the frame drawn at `drawnAt` sits under the camera now: two corners fix scale and offset.
  const place = () => {
    const { width, height } = sigma.getDimensions();
    const from = { cameraState: drawnAt! };
    // sigma's own matrix is still the drawn frame's: the camera's state now is passed explicitly.
    const to = { cameraState: camera.getState() };
    const a = sigma.framedGraphToViewport(sigma.viewportToFramedGraph({ x: 0, y: 0 }, from), to);
    const b = sigma.framedGraphToViewport(sigma.viewportToFramedGraph({ x: width, y: height }, from), to);
    transform(`translate(${a.x}px, ${a.y}px) scale(${(b.x - a.x) / width})`);
  };
  const rest = () => sigma.scheduleRender();

  // sigma's own listener renders on every camera change: replaced by one that decides per move.
  camera.removeAllListeners('updated');
  const onCamera = () => {
    if (!drawnAt || !active()) {
      sigma.scheduleRender();
      return;
    }
    place();
    window.clearTimeout(restTimer);
    restTimer = window.setTimeout(rest, sigma.getMouseCaptor().isMouseDown ? REST_HELD_MS : REST_MS);
  };
  camera.on('updated', onCamera);

  return () => {
    window.clearTimeout(restTimer);
    camera.removeListener('updated', onCamera);
    sigma.off('afterRender', drawn);
  };
}
