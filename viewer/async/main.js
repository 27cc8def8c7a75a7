/* The async report's page (async.html): its styles, and its start. */
import '../style.css'
import './async.css'
import { startPage } from '../shared/start.js'
import { startReport } from './report.js'

startPage(startReport)
