import type { ReactNode, Ref } from 'react';
import { Box } from '@mui/material';

/**
 * The fields of an add/edit dialog: two columns from the small breakpoint up (a cell spans both with
 * gridColumn '1 / -1'), and a form, so Enter in a text box submits it.
 */
export function FormGrid({ onSubmit, children, ref }: { onSubmit: () => void; children: ReactNode; ref?: Ref<HTMLFormElement> }) {
  return (
    <Box
      ref={ref}
      component="form"
      noValidate
      autoComplete="off"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
      sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, columnGap: 2, rowGap: 0.5, pt: 1 }}
    >
      {children}
      {/* Implicit submission needs a submit button once the form has more than one text box. */}
      <button type="submit" hidden />
    </Box>
  );
}

export default FormGrid;
