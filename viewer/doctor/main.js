/* The doctor report's page (doctor.html): uPlot's styles and its own, and its start. */
import 'uplot/dist/uPlot.min.css'
import '../style.css'
import './style.css'
import { startPage } from '../shared/start.js'
import { startReport } from './report.js'

startPage(startReport)
