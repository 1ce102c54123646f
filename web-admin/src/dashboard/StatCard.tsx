import { type ComponentType, type ReactNode, createElement } from 'react';
import { Box, Card, Divider, Skeleton, Typography } from '@mui/material';
import type { SvgIconProps } from '@mui/material';
import { useTranslate } from 'react-admin';

/** A figure that may still be loading or may have failed to load. */
export interface Figure {
  value: string | undefined;
  isPending: boolean;
  isError: boolean;
}

export const figureOf = <T,>(query: { data: T | undefined; isPending: boolean; isError: boolean }, format: (data: T) => string): Figure => ({
  value: query.data === undefined ? undefined : format(query.data),
  isPending: query.isPending,
  isError: query.isError,
});

/** Shows a figure: a skeleton while loading, a dash with an explanation when it failed. */
export const FigureText = ({ figure, testId, width = 120 }: { figure: Figure; testId?: string; width?: number }) => {
  const translate = useTranslate();
  if (figure.isPending) return <Skeleton variant="text" width={width} sx={{ display: 'inline-block' }} />;
  if (figure.isError || figure.value === undefined)
    return (
      <span title={translate('pos.dashboard.unavailable')} data-testid={testId}>
        —
      </span>
    );
  return <span data-testid={testId}>{figure.value}</span>;
};

/**
 * The react-admin demo's CardWithIcon: an icon on a tinted disc at the left, the title and the
 * figure at the right, optional lines below a divider.
 */
export const StatCard = ({
  icon,
  title,
  figure,
  testId,
  caption,
  children,
}: {
  icon: ComponentType<SvgIconProps>;
  title: string;
  figure: Figure;
  testId: string;
  caption?: ReactNode;
  children?: ReactNode;
}) => {
  const translate = useTranslate();
  return (
    <Card sx={{ minHeight: 52, display: 'flex', flexDirection: 'column', flex: 1 }} data-testid={`${testId}-card`}>
      <Box
        sx={{
          position: 'relative',
          overflow: 'hidden',
          p: 2,
          flex: children ? undefined : 1,
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          '& .icon': { color: 'secondary.main' },
          '&:before': {
            position: 'absolute',
            top: '50%',
            left: 0,
            display: 'block',
            content: `''`,
            height: '200%',
            aspectRatio: '1',
            transform: 'translate(-30%, -60%)',
            borderRadius: '50%',
            backgroundColor: 'secondary.main',
            opacity: 0.15,
          },
        }}
      >
        <Box sx={{ width: '3em' }} className="icon">
          {createElement(icon, { fontSize: 'large' })}
        </Box>
        <Box sx={{ textAlign: 'right', minWidth: 0 }}>
          <Typography color="text.secondary">{translate(title)}</Typography>
          <Typography variant="h5" component="p" sx={{ fontWeight: 500, whiteSpace: 'nowrap' }}>
            <FigureText figure={figure} testId={testId} />
          </Typography>
          {caption ? (
            <Typography variant="caption" color="text.secondary">
              {caption}
            </Typography>
          ) : null}
        </Box>
      </Box>
      {children ? <Divider /> : null}
      {children}
    </Card>
  );
};
