// A link to a screen by its name in the screen catalogue (src/domain/screens.ts), never by a literal path.
import type { ComponentProps } from 'react';
import { Link } from 'wouter';
import { pathOfScreen, type ScreenName } from '../../domain/screens';

export function RouteLink({ to, ...rest }: { to: ScreenName } & Omit<ComponentProps<'a'>, 'href'>) {
  return <Link href={pathOfScreen(to)} {...rest} />;
}
