// A link to a screen by its name in the route table (machines/routes.ts), never by a literal path.
import type { ComponentProps } from 'react';
import { Link } from 'wouter';
import { pathOfRoute, type RouteName } from '../../../machines/routes';

export function RouteLink({ to, ...rest }: { to: RouteName } & Omit<ComponentProps<'a'>, 'href'>) {
  return <Link href={pathOfRoute(to)} {...rest} />;
}
