/** The bundled suite's task programs by task id (suite/site.ts lists the same ids, public/web/suite/ holds their pages). */
import type { TaskProgram } from '../site.ts';
import { APP_TASKS } from './apps.ts';
import { WIDGET_TASKS } from './widgets.ts';

export const SUITE_PROGRAMS: Readonly<Record<string, TaskProgram>> = { ...WIDGET_TASKS, ...APP_TASKS };
