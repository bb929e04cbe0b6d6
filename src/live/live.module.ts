import { Module } from '@nestjs/common';
import { AdminModule } from '../admin/admin.module';
import { EvalModule } from '../eval/eval.module';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { SessionsModule } from '../sessions/sessions.module';
import { EventCatalogueController } from './event-catalogue.controller';
import { LiveFeed } from './live-feed.service';
import { LiveGateway } from './live.gateway';
import { RunFeed } from './run-feed.service';
import { RunsGateway } from './runs.gateway';
import { ViewerController } from './viewer.controller';

/** The WebSocket gateway and the session viewer (served at /). */
@Module({
  imports: [AdminModule, EvalModule, ProcessModule, ProviderModule, SessionsModule],
  controllers: [ViewerController, EventCatalogueController],
  providers: [LiveFeed, LiveGateway, RunFeed, RunsGateway],
  exports: [LiveFeed],
})
export class LiveModule {}
