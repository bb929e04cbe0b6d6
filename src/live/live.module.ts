import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { SessionsModule } from '../sessions/sessions.module';
import { EventCatalogueController } from './event-catalogue.controller';
import { LiveFeed } from './live-feed.service';
import { LiveGateway } from './live.gateway';
import { ViewerController } from './viewer.controller';

/** The WebSocket gateway and the session viewer (served at /). */
@Module({
  imports: [AdminModule, ProcessModule, ProviderModule, SessionsModule],
  controllers: [ViewerController, EventCatalogueController],
  providers: [LiveFeed, LiveGateway],
  exports: [LiveFeed],
})
export class LiveModule {}
