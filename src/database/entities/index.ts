import { EvalCellEntity } from './eval-cell.entity';
import { EvalExchangeEntity } from './eval-exchange.entity';
import { EvalRunEntity } from './eval-run.entity';
import { EvalTrialEntity } from './eval-trial.entity';
import { EvalWorkerEntity } from './eval-worker.entity';
import { EventEntity } from './event.entity';
import { IterationEntity } from './iteration.entity';
import { McpServerEntity } from './mcp-server.entity';
import { MessageEntity } from './message.entity';
import { SessionEntity } from './session.entity';
import { ToolCallEntity } from './tool-call.entity';

export {
  EvalCellEntity,
  EvalExchangeEntity,
  EvalRunEntity,
  EvalTrialEntity,
  EvalWorkerEntity,
  EventEntity,
  IterationEntity,
  McpServerEntity,
  MessageEntity,
  SessionEntity,
  ToolCallEntity,
};

export const ENTITIES = [
  SessionEntity,
  MessageEntity,
  IterationEntity,
  ToolCallEntity,
  EventEntity,
  EvalRunEntity,
  EvalTrialEntity,
  EvalCellEntity,
  EvalExchangeEntity,
  EvalWorkerEntity,
  McpServerEntity,
];
