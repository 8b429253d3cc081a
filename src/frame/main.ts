import './frame.css'
import { startFrame } from './startFrame'

// The secure frame's page: everything happens in startFrame; a frame that is not allowed stays silent.
void startFrame({ window }).then((started) => {
  if (started.status === 'silent' && new URL(location.href).searchParams.get('enableLogger') === 'true') console.info(`[tessera-frame] silent: ${started.reason}`)
})
