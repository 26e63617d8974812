import type { ReactNode } from 'react';
import { Box, LinearProgress, Pagination } from '@mui/material';
import { EmptyState } from './EmptyState';

export interface CardGridProps<T> {
  rows: T[];
  total: number;
  page: number;
  perPage: number;
  onPageChange: (page: number) => void;
  renderCard: (row: T) => ReactNode;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  /** Smallest card width; the grid fits as many columns as the width allows. */
  minCardWidth?: number;
  testId?: string;
}

/** Responsive grid of cards with a pager that only appears when there is more than one page. */
export function CardGrid<T>({ rows, total, page, perPage, onPageChange, renderCard, rowKey, loading, minCardWidth = 260, testId = 'card-grid' }: CardGridProps<T>) {
  const pages = Math.ceil(total / perPage);
  return (
    <Box data-testid={testId}>
      <Box sx={{ height: 4 }}>{loading && <LinearProgress />}</Box>
      {rows.length === 0 && !loading ? (
        <EmptyState minHeight={240} />
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, minmax(${minCardWidth}px, 1fr))`, gap: 2 }}>
          {rows.map((row) => (
            <Box key={rowKey(row)} sx={{ minWidth: 0 }}>
              {renderCard(row)}
            </Box>
          ))}
        </Box>
      )}
      {total > perPage && (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Pagination
            count={pages}
            page={Math.min(page, pages)}
            onChange={(_e, p) => onPageChange(p)}
            color="primary"
            shape="rounded"
            data-testid={testId + '-pager'}
          />
        </Box>
      )}
    </Box>
  );
}

export default CardGrid;
