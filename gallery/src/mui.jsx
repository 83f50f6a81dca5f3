// MUI (Material UI) and MUI X date pickers; the app keeps its own state through the components'
// onChange / onClose handlers and records it.
import "./mui.css";
import { useState } from "react";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import Snackbar from "@mui/material/Snackbar";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import dayjs from "dayjs";
import { record } from "./_state.js";
import { mount } from "./_react.js";

const MOVIES = ["The Shawshank Redemption", "The Godfather", "The Dark Knight", "Pulp Fiction", "Fight Club"];

function App() {
  const [age, setAge] = useState("");
  const [movie, setMovie] = useState(null);
  const [dark, setDark] = useState(false);
  const [remember, setRemember] = useState(false);
  const [date, setDate] = useState(null);
  const [dialog, setDialog] = useState(false);
  const [toast, setToast] = useState(false);
  const closeDialog = (answer) => {
    record("dialog", answer);
    setDialog(false);
  };
  const saveDraft = () => {
    // The save takes a moment before the snackbar confirms it.
    setTimeout(() => {
      setToast(true);
      record("toastOpen", true);
    }, 800);
  };
  return (
    <LocalizationProvider dateAdapter={AdapterDayjs}>
      <Stack spacing={3} sx={{ p: 3, maxWidth: 480 }}>
        <Typography variant="h4" component="h1">MUI</Typography>
        <FormControl fullWidth>
          <InputLabel id="age-label">Age</InputLabel>
          <Select
            labelId="age-label"
            label="Age"
            value={age}
            onChange={(e) => {
              setAge(e.target.value);
              record("age", e.target.value);
            }}
          >
            <MenuItem value={10}>Ten</MenuItem>
            <MenuItem value={20}>Twenty</MenuItem>
            <MenuItem value={30}>Thirty</MenuItem>
          </Select>
        </FormControl>
        <Autocomplete
          options={MOVIES}
          value={movie}
          onChange={(_, v) => {
            setMovie(v);
            record("movie", v);
          }}
          renderInput={(params) => <TextField {...params} label="Movie" />}
        />
        <Box>
          <FormControlLabel
            control={<Switch checked={dark} onChange={(e) => { setDark(e.target.checked); record("dark", e.target.checked); }} />}
            label="Dark mode"
          />
          <FormControlLabel
            control={<Checkbox checked={remember} onChange={(e) => { setRemember(e.target.checked); record("remember", e.target.checked); }} />}
            label="Remember me"
          />
        </Box>
        <DatePicker
          label="Start date"
          value={date}
          referenceDate={dayjs("2024-05-01")}
          onChange={(v) => {
            setDate(v);
            record("date", v && v.isValid() ? v.format("YYYY-MM-DD") : null);
          }}
        />
        <Box>
          <Button variant="outlined" onClick={() => { setDialog(true); record("dialogOpened", true); }}>Open dialog</Button>{" "}
          <Button variant="contained" onClick={saveDraft}>Save draft</Button>
        </Box>
      </Stack>
      <Dialog open={dialog} onClose={() => closeDialog("dismissed")} slotProps={{ transition: { onExited: () => record("dialogClosed", true) } }}>
        <DialogTitle>Use location service?</DialogTitle>
        <DialogContent>Let the app determine your location.</DialogContent>
        <DialogActions>
          <Button onClick={() => closeDialog("disagree")}>Disagree</Button>
          <Button onClick={() => closeDialog("agree")}>Agree</Button>
        </DialogActions>
      </Dialog>
      <Snackbar
        open={toast}
        autoHideDuration={10000}
        onClose={() => setToast(false)}
        message="Draft saved"
      />
    </LocalizationProvider>
  );
}

mount(<App />, "MUI");
