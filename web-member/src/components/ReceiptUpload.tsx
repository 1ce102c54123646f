import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Box, Button, FormHelperText, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { ACCEPTED_IMAGE_TYPES, imageContentProblem, imageProblem } from '../lib/images';
import { toast } from '../lib/notify';
import { usePreviewUrl } from '../lib/use-preview-url';

interface Props {
  /** Sends the receipt; resolves true when the server accepted it (the form then clears). */
  onUpload: (file: File) => Promise<boolean>;
  /** The rest of the form's check, run on the same press as the receipt's so every problem shows at once; false stops the upload. */
  check?: () => Promise<boolean>;
  disabled?: boolean;
  buttonLabel?: string;
  /** Shown under the drop area, e.g. the amount to transfer. */
  hint?: ReactNode;
}

function formatSize(bytes: number): string {
  return bytes >= 1000 * 1000 ? `${(bytes / 1000 / 1000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

/**
 * A proof-of-payment image (seed 000 §2.3, §5): required, at most 500 kB, previewed before it is
 * sent. The file input is named `payment_receipt` like the field it is sent in.
 */
export function ReceiptUpload({ onUpload, check, disabled = false, buttonLabel = 'Upload receipt', hint }: Props) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const preview = usePreviewUrl(file);
  /** The file chosen last: a slower content check of an earlier one must not take it away. */
  const latest = useRef<File | null>(null);

  const refuse = (problem: string) => {
    toast.warning(problem);
    setError(problem);
    setFile(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  // Taken at once, then dropped if its content is not an image after all (a renamed program).
  const choose = async (chosen: File | null | undefined) => {
    if (!chosen) return;
    const problem = imageProblem(chosen);
    if (problem) return refuse(problem);
    setError(null);
    setFile(chosen);
    latest.current = chosen;
    const contentProblem = await imageContentProblem(chosen);
    if (contentProblem && latest.current === chosen) refuse(contentProblem);
  };

  const clear = () => {
    setFile(null);
    setError(null);
    if (inputRef.current) inputRef.current.value = '';
  };

  const submit = async () => {
    const fieldsOk = check ? await check() : true;
    const problem = imageProblem(file);
    if (problem || !file) {
      toast.warning(problem ?? 'Please choose an image to upload.');
      setError(problem);
      return;
    }
    if (!fieldsOk) return;
    setBusy(true);
    try {
      if (await onUpload(file)) clear();
    } finally {
      setBusy(false);
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled && !busy) void choose(event.dataTransfer.files?.[0]);
  };

  return (
    <Box>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        name="payment_receipt"
        accept={ACCEPTED_IMAGE_TYPES}
        aria-label="Payment receipt"
        hidden
        disabled={disabled || busy}
        onChange={(e) => void choose(e.target.files?.[0])}
      />
      {file && preview ? (
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', p: 1.25, borderRadius: 2, border: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
          <Box
            component="img"
            src={preview}
            alt="Receipt preview"
            data-testid="receipt-preview"
            sx={{ width: 64, height: 64, objectFit: 'cover', borderRadius: 1.5, border: 1, borderColor: 'divider', flexShrink: 0 }}
          />
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Typography variant="body2" noWrap sx={{ fontWeight: 600 }}>
              {file.name}
            </Typography>
            <Typography variant="caption" color="text.secondary">
              {formatSize(file.size)}
            </Typography>
          </Box>
          <Tooltip title="Remove">
            <span>
              <IconButton aria-label="Remove receipt" onClick={clear} disabled={busy}>
                <DeleteOutline />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      ) : (
        <Box
          component="label"
          htmlFor={inputId}
          onDragOver={(e) => {
            e.preventDefault();
            if (!disabled) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          sx={{
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            textAlign: 'center',
            gap: 0.5,
            px: 2,
            py: 2.5,
            borderRadius: 2,
            border: '1.5px dashed',
            borderColor: error ? 'error.main' : dragging ? 'primary.main' : '#c9d6ce',
            bgcolor: dragging ? 'rgba(47,138,87,0.06)' : '#fafcfb',
            cursor: disabled ? 'not-allowed' : 'pointer',
            opacity: disabled ? 0.6 : 1,
            transition: 'border-color 120ms, background-color 120ms',
            '&:hover': disabled ? undefined : { borderColor: 'primary.main', bgcolor: 'rgba(47,138,87,0.04)' },
          }}
        >
          <CloudUploadOutlined color="primary" />
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            Choose a receipt image
          </Typography>
          <Typography variant="caption" color="text.secondary">
            JPEG, PNG or WebP, up to 500 kB
          </Typography>
        </Box>
      )}
      {error && <FormHelperText error>{error}</FormHelperText>}
      {hint && (
        <Typography variant="caption" color="text.secondary" component="div" sx={{ mt: 1 }}>
          {hint}
        </Typography>
      )}
      <Button variant="outlined" fullWidth onClick={() => void submit()} disabled={disabled || busy} sx={{ mt: 1.5 }} startIcon={<CloudUploadOutlined />}>
        {busy ? 'Uploading…' : buttonLabel}
      </Button>
    </Box>
  );
}
