// The session viewer's static page at / and its files under /viewer/ — the only routes besides
// /health that need no token: they hold no data; everything the page shows it loads with the token.
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { loadWebAssets, type WebAsset } from './web-assets';

// the page runs only its own scripts and talks only to its own origin
const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

interface Response {
  setHeader(name: string, value: string): void;
  send(body: Buffer): void;
}

@ApiExcludeController()
@Controller()
export class ViewerController {
  private readonly assets = loadWebAssets();

  @Get()
  index(@Res() res: Response): void {
    this.send(res, this.assets.get('index.html')!);
  }

  @Get('viewer/*path')
  file(@Param('path') parts: string[] | string, @Res() res: Response): void {
    const name = Array.isArray(parts) ? parts.join('/') : parts;
    const asset = this.assets.get(name);
    if (!asset || name === 'index.html') throw new NotFoundException(`no viewer file ${name}`);
    this.send(res, asset);
  }

  @Get('favicon.ico')
  @Header('Cache-Control', 'max-age=86400')
  favicon(@Res() res: Response): void {
    this.send(res, this.assets.get('favicon.svg') ?? { body: Buffer.alloc(0), type: 'image/svg+xml' });
  }

  private send(res: Response, asset: WebAsset): void {
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.send(asset.body);
  }
}
