import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { bearerFrom, tokenMatches } from './admin-token';

export const ADMIN_TOKEN = Symbol('ADMIN_TOKEN');

@Injectable()
export class AdminAuthGuard implements CanActivate {
  constructor(@Inject(ADMIN_TOKEN) private readonly token: string) {}

  canActivate(ctx: ExecutionContext): boolean {
    const req = ctx.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    if (!tokenMatches(this.token, bearerFrom(req.headers.authorization))) {
      throw new UnauthorizedException('missing or invalid bearer token (Authorization: Bearer <LOUPE_ADMIN_TOKEN>)');
    }
    return true;
  }
}
