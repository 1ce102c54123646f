import { useCallback, useRef, type HTMLAttributes, type ReactNode } from 'react';
import { Box, ButtonBase, Chip, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import RemoveIcon from '@mui/icons-material/Remove';
import CenterFocusStrong from '@mui/icons-material/CenterFocusStrongOutlined';
import FitScreen from '@mui/icons-material/FitScreenOutlined';
import PersonAddAlt from '@mui/icons-material/PersonAddAlt1Outlined';
import { Tree, TreeNode } from 'react-organizational-chart';
import { TransformComponent, TransformWrapper, type ReactZoomPanPinchContentRef } from 'react-zoom-pan-pinch';
import type { GenealogyNode } from '@portal/services/contracts/genealogy';
import { legSlots, LEGS, type Leg } from './tree';
import { storageUrl } from '../lib/storage';
import { MemberAvatar } from '../MemberAvatar';

const NODE_WIDTH = 184;
/** The brand's light green (web-member theme green[300]), the same in both apps. */
const LINE_COLOR = '#7fc399';
/** Below this the names on the nodes are too small to read. */
const MIN_READABLE_SCALE = 0.6;
/** A press that moves the chart further than this is a pan, not a click on a member. */
const CLICK_SLOP_PX = 6;

const legLabel = (leg: Leg) => (leg === 'left' ? 'Left' : 'Right');

function LegTag({ leg }: { leg: Leg }) {
  return (
    <Typography
      component="span"
      sx={{ position: 'absolute', top: 6, left: 8, fontSize: '0.66rem', fontWeight: 700, letterSpacing: '0.06em', textTransform: 'uppercase', color: 'text.secondary' }}
    >
      {legLabel(leg)}
    </Typography>
  );
}

function MemberNode({ node, leg, parent, isTop, more, onOpen }: { node: GenealogyNode; leg: Leg | null; parent: string | null; isTop: boolean; more: number; onOpen: (node: GenealogyNode) => void }) {
  return (
    <ButtonBase
      data-testid="genealogy-node"
      data-username={node.username}
      data-leg={leg ?? ''}
      data-parent={parent ?? ''}
      aria-label={`${node.name} (@${node.username})${isTop ? '' : ', show this member at the top'}`}
      onClick={() => onOpen(node)}
      sx={{
        position: 'relative',
        width: NODE_WIDTH,
        display: 'inline-flex',
        flexDirection: 'column',
        alignItems: 'center',
        px: 1.5,
        pt: 2.25,
        pb: 1.25,
        borderRadius: 3,
        bgcolor: 'background.paper',
        border: 2,
        borderColor: isTop ? 'primary.main' : 'divider',
        boxShadow: isTop ? '0 4px 14px rgba(35,113,70,0.18)' : '0 1px 3px rgba(16,40,26,0.08)',
        textAlign: 'center',
        cursor: isTop ? 'default' : 'pointer',
        transition: 'border-color 120ms, box-shadow 120ms',
        '&:hover': isTop ? undefined : { borderColor: 'primary.light', boxShadow: '0 4px 12px rgba(16,40,26,0.12)' },
        '&.Mui-focusVisible': { outline: '3px solid', outlineColor: 'primary.light', outlineOffset: 2 },
      }}
    >
      {leg && <LegTag leg={leg} />}
      <Box
        component="span"
        title={node.active ? 'Active' : 'Inactive'}
        sx={{ position: 'absolute', top: 9, right: 10, width: 9, height: 9, borderRadius: '50%', bgcolor: node.active ? '#3cb371' : '#b8c2bc', boxShadow: node.active ? '0 0 0 3px rgba(60,179,113,0.18)' : 'none' }}
      />
      <MemberAvatar src={storageUrl(node.photo_path)} size={52} sx={{ mb: 0.75, border: '2px solid', borderColor: node.active ? 'primary.light' : 'divider' }} />
      <Typography sx={{ fontWeight: 700, fontSize: '0.9rem', lineHeight: 1.25, maxWidth: '100%' }} noWrap data-testid="genealogy-node-name">
        {node.name}
      </Typography>
      <Typography variant="caption" color="text.secondary" sx={{ maxWidth: '100%' }} noWrap>
        @{node.username}
      </Typography>
      <Stack direction="row" spacing={0.5} sx={{ mt: 0.75, justifyContent: 'center', flexWrap: 'wrap' }}>
        {node.package && <Chip size="small" color="primary" variant="outlined" label={node.package} sx={{ height: 20, fontSize: '0.7rem' }} />}
        <Chip
          size="small"
          label={node.active ? 'Active' : 'Inactive'}
          data-testid="genealogy-node-status"
          sx={{ height: 20, fontSize: '0.7rem', bgcolor: node.active ? 'rgba(60,179,113,0.14)' : 'rgba(90,107,97,0.12)', color: node.active ? 'primary.dark' : 'text.secondary' }}
        />
      </Stack>
      <Stack direction="row" sx={{ mt: 1, width: '100%', borderTop: 1, borderColor: 'divider', pt: 0.75 }} data-testid="genealogy-node-counts">
        <Box sx={{ flex: 1 }}>
          <Typography sx={{ fontWeight: 700, fontSize: '0.85rem', lineHeight: 1.2 }}>{node.left_count}</Typography>
          <Typography sx={{ fontSize: '0.66rem', color: 'text.secondary' }}>Left</Typography>
        </Box>
        <Box sx={{ width: '1px', bgcolor: 'divider' }} />
        <Box sx={{ flex: 1 }}>
          <Typography sx={{ fontWeight: 700, fontSize: '0.85rem', lineHeight: 1.2 }}>{node.right_count}</Typography>
          <Typography sx={{ fontSize: '0.66rem', color: 'text.secondary' }}>Right</Typography>
        </Box>
      </Stack>
      {more > 0 && (
        <Typography data-testid="genealogy-node-more" sx={{ mt: 0.75, fontSize: '0.72rem', fontWeight: 600, color: 'primary.main' }}>
          {more} more below
        </Typography>
      )}
    </ButtonBase>
  );
}

function EmptySlot({ leg, parent }: { leg: Leg; parent: string }) {
  return (
    <Box
      data-testid="genealogy-empty"
      data-leg={leg}
      data-parent={parent}
      aria-label={`Empty ${legLabel(leg).toLowerCase()} slot under @${parent}`}
      role="img"
      sx={{
        width: NODE_WIDTH - 40,
        display: 'inline-flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 0.25,
        py: 1.5,
        borderRadius: 3,
        border: '2px dashed',
        borderColor: '#cfd9d3',
        bgcolor: 'rgba(255,255,255,0.6)',
        color: 'text.secondary',
      }}
    >
      <PersonAddAlt sx={{ color: '#a9b8af' }} />
      <Typography sx={{ fontSize: '0.8rem', fontWeight: 600 }}>Empty</Typography>
      <Typography sx={{ fontSize: '0.68rem' }}>{legLabel(leg)} leg</Typography>
    </Box>
  );
}

interface ChartProps {
  /** The member shown at the top of the chart. */
  top: GenealogyNode;
  /** Levels drawn below the top. */
  levels: number;
  /** The deepest `level` the api returned: below it the tree is not known here. */
  fetchedDepth: number;
  onOpen: (node: GenealogyNode) => void;
}

/**
 * The binary tree below `node`: both legs on each drawn level, an empty slot where a leg is free.
 * A plain function, not a component: the chart library draws the connector to a child list
 * whenever a node has React children, so a node without drawn legs must get none at all.
 */
function legs(node: GenealogyNode, remaining: number, fetchedDepth: number, onOpen: (node: GenealogyNode) => void): ReactNode[] | null {
  // Below the fetched depth the legs are not known: the node says how many members lie below instead.
  if (!drawsLegs(node, remaining, fetchedDepth)) return null;
  const slots = legSlots(node);
  return LEGS.map((leg) => {
    const child = slots[leg];
    if (!child) return <TreeNode key={leg} label={<EmptySlot leg={leg} parent={node.username} />} />;
    const more = drawsLegs(child, remaining - 1, fetchedDepth) ? 0 : child.downlines;
    return (
      <TreeNode key={leg} label={<MemberNode node={child} leg={leg} parent={node.username} isTop={false} more={more} onOpen={onOpen} />}>
        {legs(child, remaining - 1, fetchedDepth, onOpen)}
      </TreeNode>
    );
  });
}

function drawsLegs(node: GenealogyNode, remaining: number, fetchedDepth: number): boolean {
  return remaining > 0 && node.level < fetchedDepth;
}

/**
 * The organisation chart of the placement tree (seed 000 §2.8), pannable and zoomable: drag or
 * swipe to move, wheel or pinch to zoom, the buttons for zoom, fit and back to the top.
 * Tree layout by react-organizational-chart, pan and zoom by react-zoom-pan-pinch.
 * Shared by the member's network page and the back office's genealogy panel, so both draw the tree
 * the same way; choosing a member calls `onOpen`, and the page decides how to re-root on it.
 */
export function GenealogyChart({ top, levels, fetchedDepth, onOpen }: ChartProps) {
  const controls = useRef<ReactZoomPanPinchContentRef | null>(null);
  const press = useRef<{ x: number; y: number; moved: boolean }>({ x: 0, y: 0, moved: false });

  /**
   * The top member centred at the top: the whole chart when it fits at a readable size, else as
   * much of it as fits at that size (the rest is a drag away).
   */
  const toTop = useCallback((animationTime = 200) => {
    const ref = controls.current;
    const wrapper = ref?.instance.wrapperComponent;
    const content = ref?.instance.contentComponent;
    if (!ref || !wrapper || !content) return;
    const fit = Math.min(wrapper.clientWidth / content.offsetWidth, (wrapper.clientHeight - 16) / content.offsetHeight);
    const scale = Math.min(1, Math.max(MIN_READABLE_SCALE, fit));
    void ref.setTransform((wrapper.clientWidth - content.offsetWidth * scale) / 2, 16, scale, animationTime);
  }, []);

  const open = (node: GenealogyNode) => {
    // A drag that started on a member moved the chart; it did not choose the member.
    if (press.current.moved) return;
    onOpen(node);
  };

  const point = (event: TouchEvent | MouseEvent) => ('touches' in event ? event.touches[0] ?? event.changedTouches[0] : event);

  return (
    <TransformWrapper
      ref={controls}
      minScale={0.25}
      maxScale={2.5}
      limitToBounds={false}
      doubleClick={{ disabled: true }}
      wheel={{ step: 0.12 }}
      onInit={() => requestAnimationFrame(() => toTop(0))}
      onPanningStart={(_ref, event) => {
        const p = point(event);
        press.current = { x: p?.clientX ?? 0, y: p?.clientY ?? 0, moved: false };
      }}
      onPanning={(_ref, event) => {
        const p = point(event);
        if (p && Math.hypot(p.clientX - press.current.x, p.clientY - press.current.y) > CLICK_SLOP_PX) press.current.moved = true;
      }}
    >
      {({ zoomIn, zoomOut, fitToView }) => (
        <Box sx={{ position: 'relative' }}>
          <Stack
            direction="column"
            spacing={0.5}
            sx={{ position: 'absolute', zIndex: 2, right: 12, top: 12, p: 0.5, borderRadius: 2, bgcolor: 'rgba(255,255,255,0.94)', border: 1, borderColor: 'divider', boxShadow: '0 2px 8px rgba(16,40,26,0.08)' }}
          >
            <Tooltip title="Zoom in" placement="left">
              <IconButton size="small" aria-label="Zoom in" onClick={() => zoomIn(0.25)}>
                <AddIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Zoom out" placement="left">
              <IconButton size="small" aria-label="Zoom out" onClick={() => zoomOut(0.25)}>
                <RemoveIcon fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Fit the whole chart" placement="left">
              <IconButton size="small" aria-label="Fit chart" onClick={() => void fitToView({ minScale: 0.25, maxScale: 1, animationTime: 200 })}>
                <FitScreen fontSize="small" />
              </IconButton>
            </Tooltip>
            <Tooltip title="Reset the view" placement="left">
              <IconButton size="small" aria-label="Reset view" onClick={() => toTop()}>
                <CenterFocusStrong fontSize="small" />
              </IconButton>
            </Tooltip>
          </Stack>
          <TransformComponent
            wrapperStyle={{ width: '100%', height: 'min(68vh, 640px)', minHeight: 380, cursor: 'grab', touchAction: 'none' }}
            wrapperProps={{ 'aria-label': 'Organisation chart', role: 'region' } as HTMLAttributes<HTMLDivElement>}
            contentProps={{ 'data-testid': 'genealogy-canvas' } as HTMLAttributes<HTMLDivElement>}
            contentStyle={{ padding: 24 }}
          >
            <Tree
              lineWidth="2px"
              lineColor={LINE_COLOR}
              lineBorderRadius="10px"
              lineHeight="22px"
              nodePadding="8px"
              label={<MemberNode node={top} leg={null} parent={null} isTop more={drawsLegs(top, levels, fetchedDepth) ? 0 : top.downlines} onOpen={open} />}
            >
              {legs(top, levels, fetchedDepth, open)}
            </Tree>
          </TransformComponent>
        </Box>
      )}
    </TransformWrapper>
  );
}
