import { Controller, Get } from '@nestjs/common';
import { DataSource } from 'typeorm';

@Controller('health')
export class HealthController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  async health(): Promise<{ status: string; database: string }> {
    const database = await this.dataSource.query('SELECT 1').then(
      () => 'up',
      () => 'down',
    );
    return { status: database === 'up' ? 'ok' : 'degraded', database };
  }
}
