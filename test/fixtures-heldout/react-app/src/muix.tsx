import { useState, type FormEvent } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { TimePicker } from '@mui/x-date-pickers/TimePicker';
import type { Dayjs } from 'dayjs';
import { mount } from './mount.js';

// Written from the MUI X docs (mui.com/x/react-date-pickers: "Getting started", "Date Picker", "Time Picker",
// controlled value with dayjs) and the MUI Dialog docs.
function App() {
  const [start, setStart] = useState<Dayjs | null>(null);
  const [time, setTime] = useState<Dayjs | null>(null);
  const [open, setOpen] = useState(false);
  const [due, setDue] = useState<Dayjs | null>(null);
  const [saved, setSaved] = useState<Record<string, unknown> | null>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaved({ start: start?.format('YYYY-MM-DD') ?? null, time: time?.format('HH:mm') ?? null });
  };

  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <h1>Meeting</h1>
      <form onSubmit={save}>
        <Stack spacing={2} sx={{ width: 300 }}>
          <DatePicker label="Start date" value={start} onChange={(value) => setStart(value)} />
          <TimePicker label="Start time" value={time} onChange={(value) => setTime(value)} />
          <Button type="submit" variant="contained">
            Save
          </Button>
        </Stack>
      </form>
      <Button onClick={() => setOpen(true)}>Set due date</Button>
      <Dialog open={open} onClose={() => setOpen(false)}>
        <DialogTitle>Due date</DialogTitle>
        <DialogContent>
          <DatePicker label="Due" value={due} onChange={(value) => setDue(value)} sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Cancel</Button>
          <Button
            onClick={() => {
              setSaved({ due: due?.format('YYYY-MM-DD') ?? null });
              setOpen(false);
            }}
          >
            Save due date
          </Button>
        </DialogActions>
      </Dialog>
      <pre id="state">{JSON.stringify({ saved })}</pre>
    </LocalizationProvider>
  );
}

mount(<App />);
