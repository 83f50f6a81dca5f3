// Radix UI primitives (unstyled, accessible); the app keeps its state from their callbacks.
import "./radix.css";
import { useState } from "react";
import * as Checkbox from "@radix-ui/react-checkbox";
import * as Dialog from "@radix-ui/react-dialog";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import * as Select from "@radix-ui/react-select";
import * as Switch from "@radix-ui/react-switch";
import * as Tabs from "@radix-ui/react-tabs";
import { record } from "./_state.js";
import { mount } from "./_react.js";

function App() {
  const [name, setName] = useState("Pedro Duarte");
  const [open, setOpen] = useState(false);
  return (
    <main>
      <h1>Radix UI</h1>
      <section>
        <label id="fruit-label">Fruit </label>
        <Select.Root onValueChange={(v) => record("fruit", v)}>
          <Select.Trigger className="trigger" aria-labelledby="fruit-label">
            <Select.Value placeholder="Pick a fruit" />
          </Select.Trigger>
          <Select.Portal>
            <Select.Content className="content" position="popper" sideOffset={4}>
              <Select.Viewport>
                {["Apple", "Banana", "Blueberry", "Grapes"].map((f) => (
                  <Select.Item key={f} value={f.toLowerCase()} className="item">
                    <Select.ItemText>{f}</Select.ItemText>
                  </Select.Item>
                ))}
              </Select.Viewport>
            </Select.Content>
          </Select.Portal>
        </Select.Root>
      </section>
      <section>
        <Checkbox.Root id="terms" className="checkbox" onCheckedChange={(v) => record("terms", v)}>
          <Checkbox.Indicator>✓</Checkbox.Indicator>
        </Checkbox.Root>{" "}
        <label htmlFor="terms">Accept terms and conditions</label>
      </section>
      <section>
        <label htmlFor="airplane">Airplane mode </label>
        <Switch.Root id="airplane" className="switch" onCheckedChange={(v) => record("airplane", v)}>
          <Switch.Thumb className="thumb" />
        </Switch.Root>
      </section>
      <section>
        <DropdownMenu.Root>
          <DropdownMenu.Trigger className="trigger">Options</DropdownMenu.Trigger>
          <DropdownMenu.Portal>
            <DropdownMenu.Content className="content" sideOffset={4}>
              {["New tab", "Duplicate", "Print"].map((item) => (
                <DropdownMenu.Item key={item} className="item" onSelect={() => record("menu", item)}>
                  {item}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </section>
      <section>
        <Dialog.Root open={open} onOpenChange={(o) => { setOpen(o); record("dialogOpen", o); }}>
          <Dialog.Trigger className="button">Edit profile</Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="overlay" />
            <Dialog.Content className="dialog">
              <Dialog.Title>Edit profile</Dialog.Title>
              <Dialog.Description>Make changes to your profile.</Dialog.Description>
              <p>
                <label htmlFor="profile-name">Name </label>
                <input id="profile-name" defaultValue={name} />
              </p>
              <button
                className="button"
                onClick={() => {
                  const v = document.getElementById("profile-name").value;
                  setName(v);
                  record("profileName", v);
                  setOpen(false);
                  record("dialogOpen", false);
                }}
              >
                Save changes
              </button>
              <Dialog.Close className="button" aria-label="Close">×</Dialog.Close>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
        <p>Profile: {name}</p>
      </section>
      <section>
        <Tabs.Root defaultValue="account" onValueChange={(v) => record("tab", v)}>
          <Tabs.List className="tablist" aria-label="Manage your account">
            <Tabs.Trigger className="tab" value="account">Account</Tabs.Trigger>
            <Tabs.Trigger className="tab" value="password">Password</Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="account">Make changes to your account here.</Tabs.Content>
          <Tabs.Content value="password">Change your password here.</Tabs.Content>
        </Tabs.Root>
      </section>
    </main>
  );
}

mount(<App />, "Radix UI");
