import { Suspense, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import {
  AppBar,
  CircularProgress,
  Box,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Stack,
  Toolbar,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import MenuIcon from '@mui/icons-material/Menu';
import MenuOpenIcon from '@mui/icons-material/MenuOpen';
import LogoutIcon from '@mui/icons-material/Logout';
import { useMember } from '../auth/member-context';
import { homeFor } from '../auth/outcome';
import { useProfileDetails } from '../api/queries';
import { MemberAvatar } from '@portal/web-shared/MemberAvatar';
import { storageUrl } from '../lib/storage';
import { Logo } from '../components/Logo';
import { LogoutDialog } from './LogoutDialog';
import { navFor } from './nav';

const DRAWER_WIDTH = 264;
const SIDEBAR_BG = '#113824';

/** The member's uploaded photo (shared with the profile page's query, so a new photo shows at once). */
function OwnAvatar({ size, sx }: { size: number; sx?: Parameters<typeof MemberAvatar>[0]['sx'] }) {
  const user = useMember();
  const details = useProfileDetails(user.uuid);
  return <MemberAvatar src={storageUrl(details.data?.photo_path)} size={size} sx={sx} />;
}

function Sidebar({ onNavigate, onLogout }: { onNavigate?: () => void; onLogout: () => void }) {
  const user = useMember();
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', bgcolor: SIDEBAR_BG, color: 'rgba(255,255,255,0.86)' }}>
      <Box sx={{ px: 2.5, height: 64, display: 'flex', alignItems: 'center' }}>
        <Logo inverted size={30} />
      </Box>
      <Box
        data-testid="user-panel"
        sx={{ mx: 2, mb: 2, p: 1.75, borderRadius: 2.5, bgcolor: 'rgba(255,255,255,0.07)', display: 'flex', alignItems: 'center', gap: 1.5 }}
      >
        <OwnAvatar size={44} sx={{ border: '2px solid rgba(255,255,255,0.25)' }} />
        <Box sx={{ minWidth: 0 }}>
          <Typography noWrap sx={{ color: '#fff', fontWeight: 650, fontSize: '0.95rem' }} data-testid="user-panel-name">
            {user.first_name} {user.last_name}
          </Typography>
          <Stack direction="row" spacing={0.75} sx={{ alignItems: 'center' }}>
            <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: '#5fd38d', boxShadow: '0 0 0 3px rgba(95,211,141,0.2)' }} />
            <Typography variant="caption" sx={{ color: 'rgba(255,255,255,0.75)' }}>
              Online
            </Typography>
          </Stack>
        </Box>
      </Box>
      <Box sx={{ flex: 1, overflowY: 'auto' }}>
      {navFor(user.is_stockist).map(({ group, items }) => (
      <Box key={group}>
      <Typography variant="overline" sx={{ px: 3, color: 'rgba(255,255,255,0.45)', fontSize: '0.68rem' }}>
        {group}
      </Typography>
      <List component="nav" aria-label={group === 'Menu' ? 'Main' : group} sx={{ px: 1.5 }}>
        {items.map((item) => (
          <ListItemButton
            key={item.name}
            component={NavLink}
            to={item.to}
            onClick={onNavigate}
            sx={{
              mb: 0.5,
              color: 'inherit',
              '&.active': { bgcolor: 'rgba(127,195,153,0.22)', color: '#fff', '& .MuiListItemIcon-root': { color: '#9fe0b8' } },
              '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' },
            }}
          >
            <ListItemIcon sx={{ color: 'rgba(255,255,255,0.7)', minWidth: 40 }}>{item.icon}</ListItemIcon>
            <ListItemText primary={item.label} slotProps={{ primary: { sx: { fontWeight: 600, fontSize: '0.93rem' } } }} />
          </ListItemButton>
        ))}
      </List>
      </Box>
      ))}
      </Box>
      <Divider sx={{ borderColor: 'rgba(255,255,255,0.1)' }} />
      <List sx={{ px: 1.5, py: 1.5 }}>
        <ListItemButton onClick={onLogout} sx={{ color: 'inherit', '&:hover': { bgcolor: 'rgba(255,255,255,0.08)' } }}>
          <ListItemIcon sx={{ color: 'rgba(255,255,255,0.7)', minWidth: 40 }}>
            <LogoutIcon />
          </ListItemIcon>
          <ListItemText primary="Logout" slotProps={{ primary: { sx: { fontWeight: 600, fontSize: '0.93rem' } } }} />
        </ListItemButton>
      </List>
    </Box>
  );
}

/** The member area frame (seed 000 §2.4). Unpaid members are sent to /welcome. */
export function MemberLayout() {
  const user = useMember();
  const theme = useTheme();
  const desktop = useMediaQuery(theme.breakpoints.up('md'), { noSsr: true });
  const [desktopOpen, setDesktopOpen] = useState(true);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [logoutOpen, setLogoutOpen] = useState(false);
  const location = useLocation();

  if (user.payment !== 'approved') return <Navigate to={homeFor(user)} replace />;

  const open = desktop ? desktopOpen : mobileOpen;
  const toggle = () => (desktop ? setDesktopOpen((o) => !o) : setMobileOpen((o) => !o));
  const title = navFor(user.is_stockist).flatMap((g) => g.items).find((n) => location.pathname.startsWith(n.to))?.label ?? '';
  const openLogout = () => {
    setMobileOpen(false);
    setLogoutOpen(true);
  };

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      {desktop ? (
        <Drawer
          variant="persistent"
          open={desktopOpen}
          sx={{
            width: desktopOpen ? DRAWER_WIDTH : 0,
            flexShrink: 0,
            transition: theme.transitions.create('width'),
            '& .MuiDrawer-paper': { width: DRAWER_WIDTH, border: 'none' },
          }}
        >
          <Sidebar onLogout={openLogout} />
        </Drawer>
      ) : (
        <Drawer
          variant="temporary"
          open={mobileOpen}
          onClose={() => setMobileOpen(false)}
          ModalProps={{ keepMounted: true }}
          sx={{ '& .MuiDrawer-paper': { width: DRAWER_WIDTH, border: 'none' } }}
        >
          <Sidebar onNavigate={() => setMobileOpen(false)} onLogout={openLogout} />
        </Drawer>
      )}

      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <AppBar position="sticky" color="inherit" elevation={0} sx={{ bgcolor: 'rgba(255,255,255,0.9)', backdropFilter: 'blur(8px)', borderBottom: 1, borderColor: 'divider' }}>
          <Toolbar sx={{ gap: 1.5, minHeight: { xs: 60, sm: 64 } }}>
            <Tooltip title={open ? 'Hide menu' : 'Show menu'}>
              <IconButton edge="start" aria-label="Toggle sidebar" aria-expanded={open} onClick={toggle}>
                {open ? <MenuOpenIcon /> : <MenuIcon />}
              </IconButton>
            </Tooltip>
            <Typography variant="h6" component="div" sx={{ flex: 1 }} noWrap>
              {title}
            </Typography>
            <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center' }}>
              <Box sx={{ display: { xs: 'none', sm: 'block' }, textAlign: 'right' }}>
                <Typography variant="body2" sx={{ fontWeight: 650, lineHeight: 1.2 }}>
                  {user.first_name} {user.last_name}
                </Typography>
                <Typography variant="caption" color="text.secondary">
                  @{user.username}
                </Typography>
              </Box>
              <OwnAvatar size={36} />
            </Stack>
          </Toolbar>
        </AppBar>
        <Box component="main" sx={{ flex: 1, p: { xs: 2, sm: 3, lg: 4 }, maxWidth: 1360, width: '100%', mx: 'auto' }}>
          {/* Pages load lazily inside the layout, so the menu stays put while one loads. */}
          <Suspense
            fallback={
              <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
                <CircularProgress aria-label="Loading page" />
              </Box>
            }
          >
            <Outlet />
          </Suspense>
        </Box>
      </Box>

      <LogoutDialog open={logoutOpen} onClose={() => setLogoutOpen(false)} />
    </Box>
  );
}
