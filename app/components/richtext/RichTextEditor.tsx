/**
 * The rich-text form widget (`x-widget: richText`). Built on TipTap 3 (ProseMirror underneath): it is
 * maintained, accepts React 19, renders into our own MUI toolbar rather than bringing a UI kit of its
 * own, and its extensions map one to one onto the spec's menus — heading, bold, font size, font name,
 * italic, underline, text colour, background colour, image, video, code. Loaded lazily: the console only
 * downloads it when a form with rich text opens.
 */
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import { Box, Button, CircularProgress, Divider, FormHelperText, FormLabel, IconButton, Menu, MenuItem, Popover, TextField, ToggleButton, Tooltip } from '@mui/material';
import FormatBold from '@mui/icons-material/FormatBold';
import FormatItalic from '@mui/icons-material/FormatItalic';
import FormatUnderlined from '@mui/icons-material/FormatUnderlined';
import FormatColorText from '@mui/icons-material/FormatColorText';
import FormatColorFill from '@mui/icons-material/FormatColorFill';
import ImageIcon from '@mui/icons-material/Image';
import VideoIcon from '@mui/icons-material/OndemandVideo';
import CodeIcon from '@mui/icons-material/Code';
import Undo from '@mui/icons-material/Undo';
import Redo from '@mui/icons-material/Redo';
import { useEditor, EditorContent, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { TextStyle, Color, BackgroundColor, FontFamily, FontSize } from '@tiptap/extension-text-style';
import { useNotify, useTranslate } from 'react-admin';
import { ApiError } from '../../../adapters/http';
import type { FieldInputProps } from '../fieldInputProps';
import { imageUrl } from '../api';
import { imageProblem } from '../upload/uploadFile';
import { useFilePicker } from '../upload/useFilePicker';
import { useApi } from '../calls';
import { Video } from './video';
import { richTextSx } from './styles';

const HEADINGS = [1, 2, 3, 4] as const;
const FONT_SIZES = ['12px', '14px', '16px', '18px', '24px', '32px'];
/** Font names as the server's allow-list accepts them (letters, CJK, spaces, quotes, commas). */
const FONT_NAMES = [
  { value: 'SimSun', label: '宋体 SimSun' },
  { value: 'SimHei', label: '黑体 SimHei' },
  { value: 'KaiTi', label: '楷体 KaiTi' },
  { value: 'Microsoft YaHei', label: '微软雅黑 Microsoft YaHei' },
  { value: 'Arial', label: 'Arial' },
  { value: 'Times New Roman', label: 'Times New Roman' },
  { value: 'Courier New', label: 'Courier New' },
];
const COLOURS = ['#000000', '#595959', '#d32f2f', '#e65100', '#f9a825', '#2e7d32', '#00838f', '#1976d2', '#6a1b9a', '#ffffff'];
const BACKGROUNDS = ['#fff59d', '#ffe0b2', '#ffcdd2', '#c8e6c9', '#b3e5fc', '#e1bee7', '#eeeeee'];

const EXTENSIONS = [
  StarterKit.configure({ heading: { levels: [...HEADINGS] }, link: { openOnClick: false } }),
  TextStyle,
  Color,
  BackgroundColor,
  FontFamily,
  FontSize,
  Image,
  Video,
];

function Tool({ title, active, disabled, onClick, testId, children }: { title: string; active?: boolean; disabled?: boolean; onClick: (e: MouseEvent<HTMLElement>) => void; testId: string; children: ReactNode }) {
  return (
    <Tooltip title={title}>
      <span>
        <ToggleButton value={testId} size="small" selected={Boolean(active)} disabled={disabled} onClick={onClick} aria-label={title} data-testid={`rt-${testId}`} sx={{ border: 0, p: 0.5 }}>
          {children}
        </ToggleButton>
      </span>
    </Tooltip>
  );
}

/** A select of the toolbar (heading, font size, font name) as a small button opening a menu. */
function Pick({ title, label, options, onPick, disabled, testId }: { title: string; label: string; options: { value: string; label: string }[]; onPick: (value: string) => void; disabled?: boolean; testId: string }) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={title}>
        <span>
          <Button size="small" color="inherit" disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)} aria-label={title} data-testid={`rt-${testId}`} sx={{ textTransform: 'none', minWidth: 0, px: 1 }}>
            {label} ▾
          </Button>
        </span>
      </Tooltip>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {options.map((o) => (
          <MenuItem
            key={o.value}
            dense
            data-testid={`rt-${testId}-${o.value || 'none'}`}
            onClick={() => {
              setAnchor(null);
              onPick(o.value);
            }}
          >
            {o.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/** A palette of colours (text or background) with a way back to none. */
function Palette({ title, icon, colours, onPick, disabled, testId }: { title: string; icon: ReactNode; colours: string[]; onPick: (colour: string | null) => void; disabled?: boolean; testId: string }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const pick = (c: string | null) => {
    setAnchor(null);
    onPick(c);
  };
  return (
    <>
      <Tool title={title} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)} testId={testId}>
        {icon}
      </Tool>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box sx={{ p: 1, display: 'grid', gridTemplateColumns: 'repeat(5, 24px)', gap: 0.5 }}>
          {colours.map((c) => (
            <IconButton key={c} aria-label={c} onClick={() => pick(c)} data-testid={`rt-${testId}-${c.slice(1)}`} sx={{ width: 24, height: 24, p: 0, bgcolor: c, border: 1, borderColor: 'divider', borderRadius: 0.5, '&:hover': { bgcolor: c, opacity: 0.8 } }} />
          ))}
        </Box>
        <Button size="small" fullWidth onClick={() => pick(null)} data-testid={`rt-${testId}-clear`}>
          {translate('richText.clear')}
        </Button>
      </Popover>
    </>
  );
}

/** The video menu: an http(s) address typed in a small box. */
function VideoTool({ editor, disabled }: { editor: Editor; disabled?: boolean }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [url, setUrl] = useState('');
  const [bad, setBad] = useState(false);
  const insert = () => {
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setBad(true);
    editor.chain().focus().setVideo(url.trim()).run();
    setAnchor(null);
    setUrl('');
    setBad(false);
  };
  return (
    <>
      <Tool title={translate('richText.video')} disabled={disabled} onClick={(e) => setAnchor(e.currentTarget)} testId="video">
        <VideoIcon fontSize="small" />
      </Tool>
      <Popover open={Boolean(anchor)} anchorEl={anchor} onClose={() => setAnchor(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}>
        <Box sx={{ p: 1.5, display: 'flex', gap: 1, alignItems: 'flex-start', width: 420 }}>
          <TextField
            size="small"
            fullWidth
            autoFocus
            label={translate('richText.videoUrl')}
            value={url}
            error={bad}
            helperText={bad ? translate('richText.videoBad') : ' '}
            onChange={(e) => {
              setUrl(e.target.value);
              setBad(false);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                insert();
              }
            }}
            slotProps={{ htmlInput: { 'data-testid': 'rt-video-url' } }}
          />
          <Button variant="contained" size="small" onClick={insert} sx={{ mt: 0.5 }}>
            {translate('richText.insert')}
          </Button>
        </Box>
      </Popover>
    </>
  );
}

function Toolbar({ editor, disabled }: { editor: Editor; disabled?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const api = useApi();
  const chain = () => editor.chain().focus();
  const level = HEADINGS.find((l) => editor.isActive('heading', { level: l }));
  const style = editor.getAttributes('textStyle') as { fontSize?: string; fontFamily?: string };

  // Pictures go through the console's upload (jpg/jpeg/png ≤ 2048 KB, checked again by the server) and
  // are referenced by the address the server serves them from.
  const upload = async (picked: File) => {
    const problem = imageProblem(picked);
    if (problem) return notify(translate(problem), { type: 'warning' });
    try {
      const envelope = await api.upload('upload.picture', picked);
      const src = imageUrl(envelope.data);
      if (src) chain().setImage({ src, alt: picked.name.replace(/\.[^.]+$/, '') }).run();
    } catch (e) {
      notify(translate('upload.failed', { message: e instanceof ApiError || e instanceof Error ? e.message : String(e) }), { type: 'error' });
    }
  };
  const picker = useFilePicker({ accept: '.jpg,.jpeg,.png,image/jpeg,image/png', testId: 'rt-image-input', onFile: upload });
  const uploading = picker.busy;

  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.25, px: 0.5, py: 0.25, borderBottom: 1, borderColor: 'divider', bgcolor: 'action.hover' }} role="toolbar" aria-label={translate('richText.heading')}>
      <Pick
        title={translate('richText.heading')}
        label={level ? translate(`richText.h${level}`) : translate('richText.paragraph')}
        options={[{ value: '0', label: translate('richText.paragraph') }, ...HEADINGS.map((l) => ({ value: String(l), label: translate(`richText.h${l}`) }))]}
        onPick={(v) => (v === '0' ? chain().setParagraph().run() : chain().setHeading({ level: Number(v) as (typeof HEADINGS)[number] }).run())}
        disabled={disabled}
        testId="heading"
      />
      <Pick
        title={translate('richText.fontSize')}
        label={style.fontSize ?? translate('richText.fontSize')}
        options={[{ value: '', label: translate('richText.clear') }, ...FONT_SIZES.map((s) => ({ value: s, label: s }))]}
        onPick={(v) => (v ? chain().setFontSize(v).run() : chain().unsetFontSize().run())}
        disabled={disabled}
        testId="font-size"
      />
      <Pick
        title={translate('richText.fontName')}
        label={FONT_NAMES.find((f) => f.value === style.fontFamily)?.label ?? translate('richText.fontName')}
        options={[{ value: '', label: translate('richText.defaultFont') }, ...FONT_NAMES]}
        onPick={(v) => (v ? chain().setFontFamily(v).run() : chain().unsetFontFamily().run())}
        disabled={disabled}
        testId="font-name"
      />
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title={translate('richText.bold')} active={editor.isActive('bold')} disabled={disabled} onClick={() => chain().toggleBold().run()} testId="bold">
        <FormatBold fontSize="small" />
      </Tool>
      <Tool title={translate('richText.italic')} active={editor.isActive('italic')} disabled={disabled} onClick={() => chain().toggleItalic().run()} testId="italic">
        <FormatItalic fontSize="small" />
      </Tool>
      <Tool title={translate('richText.underline')} active={editor.isActive('underline')} disabled={disabled} onClick={() => chain().toggleUnderline().run()} testId="underline">
        <FormatUnderlined fontSize="small" />
      </Tool>
      <Palette title={translate('richText.color')} icon={<FormatColorText fontSize="small" />} colours={COLOURS} onPick={(c) => (c ? chain().setColor(c).run() : chain().unsetColor().run())} disabled={disabled} testId="color" />
      <Palette title={translate('richText.background')} icon={<FormatColorFill fontSize="small" />} colours={BACKGROUNDS} onPick={(c) => (c ? chain().setBackgroundColor(c).run() : chain().unsetBackgroundColor().run())} disabled={disabled} testId="background" />
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title={translate('richText.image')} disabled={disabled || uploading} onClick={picker.choose} testId="image">
        {uploading ? <CircularProgress size={18} /> : <ImageIcon fontSize="small" />}
      </Tool>
      <VideoTool editor={editor} disabled={disabled} />
      <Tool title={translate('richText.code')} active={editor.isActive('codeBlock')} disabled={disabled} onClick={() => chain().toggleCodeBlock().run()} testId="code">
        <CodeIcon fontSize="small" />
      </Tool>
      <Divider orientation="vertical" flexItem sx={{ mx: 0.5 }} />
      <Tool title={translate('richText.undo')} disabled={disabled || !editor.can().undo()} onClick={() => chain().undo().run()} testId="undo">
        <Undo fontSize="small" />
      </Tool>
      <Tool title={translate('richText.redo')} disabled={disabled || !editor.can().redo()} onClick={() => chain().redo().run()} testId="redo">
        <Redo fontSize="small" />
      </Tool>
      {picker.input}
    </Box>
  );
}

/** An empty editor answers `<p></p>`: stored as empty, so "required" means some text or media. */
const isEmptyDoc = (editor: Editor) => editor.isEmpty && !editor.getHTML().includes('<img') && !editor.getHTML().includes('<video');

export function RichTextEditor({ field, value, onChange, disabled, error }: FieldInputProps) {
  const translate = useTranslate();
  const html = typeof value === 'string' ? value : '';
  const editor = useEditor({
    extensions: EXTENSIONS,
    content: html,
    editable: !disabled,
    // The toolbar shows the marks at the cursor, so it follows every transaction.
    shouldRerenderOnTransaction: true,
    immediatelyRender: true,
    onUpdate: ({ editor: e }) => onChange(isEmptyDoc(e) ? '' : e.getHTML()),
    editorProps: { attributes: { 'data-testid': `rt-content-${field.source}`, 'aria-label': translate(field.label) } },
  });
  // A form reopened for another row replaces the content; typing does not come back here as a change.
  useEffect(() => {
    if (editor && html !== editor.getHTML() && !(html === '' && isEmptyDoc(editor))) editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);
  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  return (
    <Box data-testid={'form-field-' + field.source} sx={{ mb: 1 }}>
      <FormLabel sx={{ fontSize: 12, display: 'block', mb: 0.5 }} required={field.required} error={Boolean(error)}>
        {translate(field.label)}
      </FormLabel>
      <Box sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, overflow: 'hidden', '&:focus-within': { borderColor: 'primary.main' } }}>
        {editor ? <Toolbar editor={editor} disabled={disabled} /> : null}
        <Box sx={{ ...richTextSx, px: 1.5, minHeight: 220, maxHeight: 420, overflowY: 'auto', '& .ProseMirror': { outline: 'none', minHeight: 200, py: 1 } } as object}>
          <EditorContent editor={editor} />
        </Box>
      </Box>
      <FormHelperText error={Boolean(error)}>{error ?? ' '}</FormHelperText>
    </Box>
  );
}

export default RichTextEditor;
